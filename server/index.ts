import { TokenAuthority, loadServerKeys } from './auth';
import { buildServer } from './app';
import { readConfig } from './config';
import { migrate, openDatabase } from './db';
import { privateFileMode } from './privateDataDir';

/** `npm start`: serves the game at http://localhost:8080 (PORT overrides). */
async function main() {
  // Everything the server writes (the database, keys, the lock) is its user's alone.
  privateFileMode();
  const config = readConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const applied = await migrate(db);
  if (applied.length > 0) console.log(`Applied migrations: ${applied.join(', ')}`);
  const tokens = await TokenAuthority.create(loadServerKeys(config.dataDir, config.publishableKey));
  const app = await buildServer(config, { db, tokens });

  const shutdown = () => {
    app
      .close()
      .then(() => db.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const database = db.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL';
  console.log(`Taleweaver is running at http://localhost:${port} (${database})`);
  if (config.functionsUrl) console.log(`Edge Functions forwarded to ${config.functionsUrl}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
