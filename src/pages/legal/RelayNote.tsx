// Whether this server hides addresses from call and roulette partners: true only when browsers are
// told to use the relay alone (ICE_TRANSPORT_POLICY=relay), so the legal pages say what this
// deployment does, not what it could do.
import type { Config } from "../../config.ts";

export function RelayNote({ config }: { config: Config }) {
  return config.iceTransportPolicy === "relay" ? (
    <>This site does: every call and roulette session goes through its relay server, so partners see the relay's address, not yours.</>
  ) : (
    <>This site does not do so at the moment, so a partner's browser can learn your IP address.</>
  );
}
