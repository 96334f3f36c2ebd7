// CallSession's dependencies in a real browser. PeerJS is imported here dynamically, so even the
// overlay's own chunk does not carry the library until a peer is created.
import { browserGetUserMedia, mediaSupported } from "../media/constraints.ts";
import { TonePlayer } from "../media/tones.ts";
import type { CallDeps } from "./call-session.ts";
import { peerOptions } from "./peer-config.ts";
import type { IceSource } from "./ice-source.ts";
import type { CallSocket } from "./ports.ts";

export function browserCallDeps(socket: CallSocket, freshIce: IceSource, onClose: (notice: string | null) => void): CallDeps {
  return {
    socket,
    createPeer: async () => {
      const [{ createPeerJsPeer }, ice] = await Promise.all([import("./peerjs-peer.ts"), freshIce()]);
      return createPeerJsPeer(peerOptions(window.location, ice));
    },
    getUserMedia: mediaSupported() ? browserGetUserMedia() : null,
    tones: new TonePlayer(),
    alert: (text) => window.alert(text),
    reload: () => window.location.reload(),
    onClose,
  };
}
