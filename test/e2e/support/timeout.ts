// Browser journeys take seconds, not milliseconds (jest ignores a project's testTimeout).
jest.setTimeout(60_000);
