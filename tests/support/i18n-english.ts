// Preloaded for every test (bunfig.toml): island components and the landing scripts, run directly
// in tests, speak English, as their page's strings would make them for an English visitor (the
// whole English catalogue: the chat island's keys and the landing script's auth.*, mod.*, error.*).
import { setStrings } from "../../islands/i18n.ts";
import { CATALOGUES } from "../../src/i18n/catalogue.ts";

setStrings("en", CATALOGUES.en);
