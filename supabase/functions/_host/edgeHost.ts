/**
 * Serves one Edge Function under Deno as the Edge Runtime does, for `npm run functions:serve`
 * (scripts/functions/server.ts): the function's own index.ts calls `Deno.serve(handler)`, as on
 * Supabase, and here that handler listens on 127.0.0.1 at the port it is given (0: any free
 * port), announced on stdout as {"listening": port}. Never deployed: it is no function's import.
 *
 *   deno run --config <name>/deno.json --allow-net --allow-env --allow-read edgeHost.ts <name> <port>
 */
const [name, port = '0'] = Deno.args;
if (!name || !/^[a-z0-9][a-z0-9_-]*$/.test(name)) {
  console.error('usage: edgeHost.ts <function name> [port]');
  Deno.exit(2);
}

type Handler = (request: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response>;
const serve = Deno.serve;
Object.assign(Deno, {
  serve: (handler: Handler) =>
    serve(
      {
        hostname: '127.0.0.1',
        port: Number(port),
        onListen: (address) => console.log(JSON.stringify({ listening: address.port })),
      },
      handler,
    ),
});

await import(new URL(`../${name}/index.ts`, import.meta.url).href);
