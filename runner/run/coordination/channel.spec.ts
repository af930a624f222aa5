import { expect, test } from 'vitest';
import { reach } from './channel.js';

test('a call the coordinator does not answer fails within the time given, naming the method', async () => {
  const { coordinator, close } = reach('no-run-has-this-id', 50);
  const started = Date.now();
  await expect(coordinator.tally()).rejects.toThrow(/the run's coordinator did not answer tally within 0\.05 s/);
  expect(Date.now() - started).toBeLessThan(5_000);
  close();
});
