// The standalone server from code, as `npx mockrouter` starts it.
import { startServer } from 'mockrouter/server';

const server = await startServer({ port: 0, seed: 42 }); // port 0 picks a free port
console.log(server.baseUrl); // http://127.0.0.1:<port>/api/v1
await server.close();
