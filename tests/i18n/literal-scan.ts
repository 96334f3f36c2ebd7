// Finds words a person would read written straight into a component instead of coming from the
// catalogue: JSX text nodes, and string literals given to props people read or hear
// (aria-label, placeholder, title, alt, label and the like). A plain scan of the source, not a
// parser: JSX text is what stands between a tag's ">" (after a tag name, a quote or a brace) and
// the next "<", with a letter in it and none of an expression's punctuation.
import { readFileSync } from "node:fs";

export interface Finding {
  file: string;
  line: number;
  text: string;
}

const READ_PROPS = ["aria-label", "aria-description", "aria-valuetext", "placeholder", "title", "alt", "label", "busyLabel", "text", "sub", "hint", "summary"];
const propPattern = new RegExp(`\\s(?:${READ_PROPS.join("|")})=(?:"([^"]*)"|\\{\\s*"([^"]*)"\\s*\\}|\\{\`([^\`]*)\`\\})`, "g");
// A tag name, a closing quote or brace, or a self-closed slash right before ">": markup, not a comparison.
const textPattern = /(?<=[A-Za-z0-9"}\/]|^)>([^<>{}]*)(?=<|\{)/gm;

/** Comments out, keeping line numbers. */
const stripComments = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " ")).replace(/(^|[^:"'`])\/\/[^\n]*/g, (m, p: string) => p + " ".repeat(m.length - p.length));

const hasWord = (text: string) => /\p{L}{2,}/u.test(text);
const lineOf = (source: string, index: number) => source.slice(0, index).split("\n").length;

export function scanSource(file: string, source = readFileSync(file, "utf8")): Finding[] {
  const code = stripComments(source);
  const findings: Finding[] = [];
  for (const m of code.matchAll(propPattern)) {
    const text = m[1] ?? m[2] ?? m[3] ?? "";
    // A template made only of ${…} parts says nothing by itself.
    if (hasWord(text.replace(/\$\{[^}]*\}/g, ""))) findings.push({ file, line: lineOf(code, m.index ?? 0), text });
  }
  for (const m of code.matchAll(textPattern)) {
    const text = (m[1] ?? "").trim();
    // Expression punctuation, or an object literal's "…>,\n  key:" between two JSX values.
    if (!text || !hasWord(text) || /[();=]|&&|\|\||=>/.test(text) || /^,[\s\S]*:$/.test(text)) continue;
    findings.push({ file, line: lineOf(code, m.index ?? 0), text });
  }
  return findings;
}
