// A small HTTP reverse proxy in front of the test server, so a test can cut the page's
// connections (as a network drop or a server restart would) and let it reconnect later. It
// forwards Host and Origin as the server's own, as a reverse proxy configured for it does.
// WebSocket upgrades (online games) are passed through as raw byte streams, and cut too.
import http from 'node:http';
import net from 'node:net';

export async function startProxy(target) {
  let up = new URL(target);
  const clientSockets = new Set();
  const upstream = new Set();
  let blocked = false;
  // Connections refused while blocked, and who waits for the next one: a test learns from it
  // that the page tried to reach the server (and could not) after a given moment.
  let refused = 0;
  const onRefusal = new Set();
  const refuse = (sock) => {
    sock.destroy();
    refused++;
    for (const fn of onRefusal) fn();
    onRefusal.clear();
  };
  const server = http.createServer((req, res) => {
    if (blocked) { refuse(req.socket); return; }
    const headers = { ...req.headers, host: up.host };
    if (headers.origin) headers.origin = up.origin;
    if (headers.referer) headers.referer = headers.referer.replace(/^https?:\/\/[^/]+/, up.origin);
    const fwd = http.request({ host: up.hostname, port: up.port, method: req.method, path: req.url, headers, agent: false }, (ur) => {
      res.writeHead(ur.statusCode, ur.headers);
      res.flushHeaders();
      ur.pipe(res);
    });
    upstream.add(fwd);
    fwd.on('close', () => upstream.delete(fwd));
    fwd.on('error', () => res.destroy());
    req.pipe(fwd);
  });
  server.on('upgrade', (req, socket, head) => {
    if (blocked) { refuse(socket); return; }
    const headers = { ...req.headers, host: up.host };
    if (headers.origin) headers.origin = up.origin;
    const back = net.connect(Number(up.port), up.hostname, () => {
      let text = `${req.method} ${req.url} HTTP/1.1\r\n`;
      for (const [k, v] of Object.entries(headers)) for (const one of [].concat(v)) text += `${k}: ${one}\r\n`;
      back.write(text + '\r\n');
      if (head && head.length) back.write(head);
      socket.pipe(back).pipe(socket);
    });
    const raw = { destroy: () => { back.destroy(); socket.destroy(); } };
    upstream.add(raw);
    const done = () => { upstream.delete(raw); back.destroy(); socket.destroy(); };
    back.on('error', done);
    socket.on('error', done);
    back.on('close', done);
    socket.on('close', done);
  });
  server.on('connection', (s) => {
    if (blocked) { refuse(s); return; }
    clientSockets.add(s);
    s.on('close', () => clientSockets.delete(s));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    /** Cuts every open connection and refuses new ones until `restore()`. */
    drop() {
      blocked = true;
      for (const s of clientSockets) s.destroy();
      for (const r of upstream) r.destroy();
    },
    restore() { blocked = false; },
    /** How many connections were refused while blocked. */
    get refused() { return refused; },
    /**
     * Resolves at the next connection refused while blocked (the page tried to reach the server
     * and could not); rejects after `timeout` ms.
     */
    nextRefusal(timeout = 20000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => { onRefusal.delete(done); reject(new Error(`no connection was attempted in ${timeout} ms`)); }, timeout);
        const done = () => { clearTimeout(timer); resolve(); };
        onRefusal.add(done);
      });
    },
    /** Sends new requests to another server (open ones are not moved). */
    retarget(url) { up = new URL(url); },
    close() {
      this.drop();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
