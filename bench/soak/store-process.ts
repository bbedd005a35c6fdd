/**
 * dynalite in a process of its own: the soak run kills it (SIGKILL) and starts it again on the same
 * port and data folder; the reports bench keeps the database's rows out of the measured process's
 * heap, as a real database is. Usage: node --import tsx store-process.ts <port> [folder] (port 0:
 * any free one; no folder: in memory). Prints `SOAK_READY <endpoint>` once it listens.
 */
import { startDynalite } from '../../dev/src/dynalite';

const [port, path] = process.argv.slice(2);
const dynalite = await startDynalite({ port: Number(port ?? 0), ...(path ? { path } : {}) });
process.stdout.write(`SOAK_READY ${dynalite.endpoint}\n`);
// Kept alive by the server until the process is killed.
