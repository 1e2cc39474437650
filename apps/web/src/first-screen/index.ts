export { holdUntilFirstScreen, useFirstScreenDrawn, useMarkFirstScreenDrawn } from './first-screen.ts';
