-- The chat list reads the owner's rows by the primary key and sorts them (they are all of the
-- owner's conversations): each message no longer rewrites two entries of an index on the time.
DROP INDEX `conversations_recent`;
