// Preloaded for every test (bunfig.toml): island components rendered directly in tests speak
// English, as the chat page's props would make them for an English visitor.
import { setStrings } from "../../islands/i18n.ts";
import { islandStrings } from "../../src/i18n/catalogue.ts";

setStrings("en", islandStrings("en"));
