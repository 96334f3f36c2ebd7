DROP INDEX "conversations_recent";--> statement-breakpoint
-- Room on each page for the rows every message updates (last message, unread count), so the update
-- stays on its page (HOT) instead of writing a new version elsewhere and new index entries.
ALTER TABLE "conversations" SET (fillfactor = 70);
