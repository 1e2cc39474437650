export { NodeSqliteDatabase } from './node-sqlite-database.ts';
