// Free loopback ports for the servers the tests start (the app, the PeerJS reference, Redis,
// HAProxy, coturn). The kernel picks one; what binds it next is the test's own server, so two
// suites running at once rarely meet, and coturn's TCP-and-UDP port is checked on both.
import { createServer } from "node:net";
import { createSocket } from "node:dgram";

/** A TCP port nothing listens on right now. */
export function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

/** A port free for both TCP and UDP on 127.0.0.1 (TURN listens on both). */
export async function freeTcpAndUdpPort(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        const address = server.address();
        server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
      });
    });
    const udpFree = await new Promise<boolean>((resolve) => {
      const socket = createSocket("udp4");
      socket.once("error", () => resolve(false));
      socket.bind(port, "127.0.0.1", () => socket.close(() => resolve(true)));
    });
    if (udpFree) return port;
  }
  throw new Error("no port free for both TCP and UDP on 127.0.0.1");
}
