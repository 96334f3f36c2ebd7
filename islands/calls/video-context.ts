// What the call overlay and Video Roulette need from the chat island: its realtime client and
// the server's ICE settings. CallLayer provides it around the chat screen.
import { createContext, useContext } from "react";
import type { RouletteSocket } from "../roulette/ports.ts";
import type { IceConfig } from "./peer-config.ts";
import type { CallSocket } from "./ports.ts";

export type VideoSocket = CallSocket & RouletteSocket;

export interface VideoSettings {
  /** Null until the chat island has started its realtime client. */
  socket: VideoSocket | null;
  ice: IceConfig;
}

export const VideoContext = createContext<VideoSettings | null>(null);

export function useVideoSettings(): VideoSettings {
  const settings = useContext(VideoContext);
  if (!settings) throw new Error("useVideoSettings needs CallLayer around it (ChatApp)");
  return settings;
}
