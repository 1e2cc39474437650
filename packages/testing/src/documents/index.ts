export { documentFixtures, scaledFixtures } from './document-fixtures.ts';
export type { Fixture, ScaledFixture } from './document-fixtures.ts';
