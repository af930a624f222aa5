import { expect, test } from 'vitest';
import { reach } from './coordinator-channel.js';

test('a call the coordinator does not answer fails within the time given, naming the call', async () => {
  const { coordinator, close } = reach('no-run-has-this-id', 50);
  const started = Date.now();
  await expect(coordinator.tallies.tally()).rejects.toThrow(/the run's coordinator did not answer tallies\.tally within 0\.05 s/);
  expect(Date.now() - started).toBeLessThan(5_000);
  close();
});
