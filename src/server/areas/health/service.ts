/** The health answer's one database read, offered to its route as every area offers its repository's reads. */
export { pingDatabase } from './repo.ts';
