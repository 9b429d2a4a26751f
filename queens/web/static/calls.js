// The explorer's JSON API (queens/web/api.py), and the calls that search: each is given a job's
// name, so that while it runs the page can ask how far it has got (/api/progress) and stop it
// (/api/cancel; the server kills the solver process and answers the call "cancelled").

const POLL = 300;  // milliseconds between two questions about a running job

export async function call(route, body) {
  let response;
  try {
    response = await fetch(`/api/${route}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new Error("the explorer does not answer: is `queens serve` still running?");
  }
  const reply = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(reply.error || `the explorer answered HTTP ${response.status}`);
  return reply;
}

function newName() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `job-${Date.now()}-${Math.floor(Math.random() * 1e9)}`;
}

let current = null;  // the job running now, if any: { name, stopped }

/**
 * `route` with `body`, as a named job: `heard(progress)` is called with each report while it runs
 * ({ strategy, done, total, solutions, bound, elapsed }); the reply is the call's, "cancelled" included.
 */
export async function searching(route, body, heard) {
  const job = { name: newName(), stopped: false };
  current = job;
  const answer = call(route, { ...body, job: job.name });
  (async () => {
    while (!job.stopped) {
      await new Promise((resolve) => setTimeout(resolve, POLL));
      if (job.stopped) break;
      const progress = await call("progress", { job: job.name }).catch(() => null);
      if (progress && progress.running && !job.stopped) heard(progress);
    }
  })();
  try {
    return await answer;
  } finally {
    job.stopped = true;
    if (current === job) current = null;
  }
}

/** Stop the job running now (its own call answers "cancelled"). */
export async function cancel() {
  if (current) await call("cancel", { job: current.name });
}
