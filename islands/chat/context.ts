// Hands the chat screen's controller (and through it the store) to every component.
import { createContext, useContext } from "react";
import type { ChatController } from "../lib/controller.ts";

export const ChatContext = createContext<ChatController | null>(null);

export function useChat(): ChatController {
  const controller = useContext(ChatContext);
  if (!controller) throw new Error("useChat needs a ChatContext provider (ChatApp)");
  return controller;
}
