// Browser journeys take seconds, not milliseconds (jest ignores a project's testTimeout). A
// hook that starts the server may wait up to its 120 s start-up (support/server.ts) on a busy
// machine, so the limit is above that.
jest.setTimeout(150_000);
