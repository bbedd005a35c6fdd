/**
 * dynalite in a process of its own, so the soak run can kill it (SIGKILL) and start it again on the
 * same port and data folder. Usage: node --import tsx store-process.ts <port> <folder>
 */
import { startDynalite } from '../../../dev/src/dynalite';

const [port, path] = process.argv.slice(2);
const dynalite = await startDynalite({ port: Number(port), path: path! });
process.stdout.write(`SOAK_READY ${dynalite.endpoint}\n`);
// Kept alive by the server until the process is killed.
