import { PGlite } from '@electric-sql/pglite';
import { openDatabase, migrate } from '../server/db';
(async () => {
  let t = Date.now();
  const db = await openDatabase({ dataDir: null });
  console.log('open', Date.now() - t); t = Date.now();
  await migrate(db);
  console.log('migrate', Date.now() - t);
  await db.close();
  t = Date.now();
  const a = new PGlite(); await a.waitReady;
  console.log('plain pglite', Date.now() - t); t = Date.now();
  const dump = await a.dumpDataDir('none');
  console.log('dump', Date.now() - t, dump.size); t = Date.now();
  const b = new PGlite({ loadDataDir: dump }); await b.waitReady;
  console.log('from dump', Date.now() - t);
})();
