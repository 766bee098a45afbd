import path from 'node:path';

/** Everything the server reads from its environment, with the defaults `npm start` uses. */
export interface ServerConfig {
  port: number;
  host: string;
  /** The built SPA (npm run build); null when the webpack dev server serves it (npm run dev). */
  distDir: string | null;
  /** Where the embedded database and the generated secrets live. */
  dataDir: string;
  logLevel: string;
}

const projectRoot = path.resolve(__dirname, '..');

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a port number, got '${env.PORT}'`);
  }
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    distDir:
      env.SERVE_APP === 'false'
        ? null
        : path.resolve(env.DIST_DIR ?? path.join(projectRoot, 'dist')),
    dataDir: path.resolve(env.DATA_DIR ?? path.join(projectRoot, 'data')),
    logLevel: env.LOG_LEVEL ?? 'info',
  };
}
