// Starts a `virada serve` of its own for tests that stop and restart the server. The binary is
// VIRADA_BIN (scripts/e2e.sh sets it), else the test-profile build in target/debug/.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..');

export function serverBinary() {
  const bin = process.env.VIRADA_BIN || path.join(ROOT, 'target', 'debug', 'virada');
  if (!fs.existsSync(bin)) {
    throw new Error(`no server binary at ${bin}: build it (cargo build --profile test -p virada) or set VIRADA_BIN`);
  }
  return bin;
}

/** Starts the server on a free port with database `db`; resolves with { url, stop }. */
export function startServer(db) {
  const child = spawn(serverBinary(), ['serve', '--addr', '127.0.0.1:0', '--db', db], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => { err = (err + d).slice(-4000); });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => { child.kill(); reject(new Error('the server did not start in 30 s: ' + err)); }, 30000);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`the server exited (${code}): ${err}`)); });
    child.stdout.on('data', (d) => {
      out += d;
      const m = /^listening on (http\S+)/m.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        url: m[1],
        /** Stops it as Ctrl-C would (SIGTERM), and waits until it has exited. */
        stop: async () => { child.kill('SIGTERM'); await exited; },
      });
    });
  });
}
