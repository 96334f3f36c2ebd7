// Success bodies shared by several routes, pointing at the entities of event-schemas.ts (named in
// the document's components) rather than repeating them.
import { Type as t } from "@sinclair/typebox";

export const ref = {
  PublicUser: t.Ref("#/components/schemas/PublicUser"),
  OwnUser: t.Ref("#/components/schemas/OwnUser"),
  Message: t.Ref("#/components/schemas/Message"),
  WarningNotice: t.Ref("#/components/schemas/WarningNotice"),
};

export const answers = {
  session: t.Object({ token: t.String(), user: ref.OwnUser }),
  guestSession: t.Object({ success: t.Literal(true), data: t.Object({ token: t.String(), user: ref.OwnUser }) }),
  ownUser: t.Object({ user: ref.OwnUser }),
  publicUser: t.Object({ user: ref.PublicUser }),
  success: t.Object({ success: t.Literal(true) }),
  message: t.Object({ message: ref.Message }),
  messages: t.Object({ messages: t.Array(ref.Message) }),
  avatar: t.Object({ avatar_url: t.Union([t.String(), t.Null()]) }),
};
