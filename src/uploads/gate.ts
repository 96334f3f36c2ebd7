// What every upload passes through, built once at start-up: the per-user storage ledger, the
// bound on bytes in flight, the decode queue and the disk. Tests may swap the disk or queue.
import type { Config } from "../config.ts";
import type { Db } from "../storage/index.ts";
import { DecodeQueue, sharedDecodeQueue } from "./decode-queue.ts";
import { InFlight } from "./inflight.ts";
import { MAX_REQUEST_BYTES } from "./limits.ts";
import { StorageLedger } from "./quota.ts";
import { realDisk, resetSpool, type UploadDisk } from "./storage.ts";

export interface UploadGate {
  ledger: StorageLedger;
  inflight: InFlight;
  decoder: DecodeQueue;
  disk: UploadDisk;
}

export function createUploadGate(config: Config, db: Db): UploadGate {
  resetSpool(config.dataDir);
  return {
    ledger: new StorageLedger(db, config.storageQuotaBytes),
    // One person may have one full multi-upload in flight, never more than the whole bound.
    inflight: new InFlight(config.uploadInflightBytes, Math.min(MAX_REQUEST_BYTES, config.uploadInflightBytes)),
    decoder: sharedDecodeQueue,
    disk: realDisk,
  };
}
