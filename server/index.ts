import { buildServer } from './app';
import { readConfig } from './config';

/** `npm start`: serves the game at http://localhost:8080 (PORT overrides). */
async function main() {
  const config = readConfig();
  const app = await buildServer(config);
  const shutdown = () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`Taleweaver is running at http://localhost:${port}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
