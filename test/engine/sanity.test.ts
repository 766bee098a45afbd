import { jsonrepair } from 'jsonrepair';
test('jsonrepair loads under jest', () => {
  expect(JSON.parse(jsonrepair('{a: 1,}'))).toEqual({ a: 1 });
});
