// The records' clock: the time of a change, and today's date as GitLab's date fields write it.

export function now(): string {
  return new Date().toISOString();
}

const day = { from: 0, until: 0, value: '' };

/** Today's date (UTC), as GitLab's date fields write it; made once a day (every request asks). */
export function today(): string {
  const now = Date.now();
  if (now < day.from || now >= day.until) {
    const date = new Date(now);
    day.from = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
    day.until = day.from + 86_400_000;
    day.value = date.toISOString().slice(0, 10);
  }
  return day.value;
}

export function isExpired(date: string | null): boolean {
  if (date === null) return false;
  return date.slice(0, 10) < today();
}
