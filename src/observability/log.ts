// One line per event. LOG_FORMAT=json writes {time, level, msg, ...fields} for log collectors;
// otherwise `time LEVEL msg key=value ...` for people. Values that could break the line are
// JSON-quoted, so a stack trace or a hostile path never spans lines or fakes a field.
import type { LogFormat, LogLevel } from "../config.ts";

export type LogValue = string | number | boolean | null | undefined;
export type LogFields = Record<string, LogValue>;
type Level = Exclude<LogLevel, "silent">;

export interface Logger {
  /** Lets a caller skip building fields for a line nobody will see. */
  enabled(level: Level): boolean;
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

/** Where a finished line goes; warnings and errors to stderr, the rest to stdout. */
export type LogSink = (level: Level, line: string) => void;

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export const standardSink: LogSink = (level, line) => {
  if (RANK[level] >= RANK.warn) console.error(line);
  else console.log(line);
};

const PLAIN = /^[^\s"=\\]{1,200}$/;

function textValue(value: LogValue): string {
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  return PLAIN.test(value!) ? value! : JSON.stringify(value);
}

function textLine(time: string, level: Level, msg: string, fields: LogFields): string {
  let line = `${time} ${level.toUpperCase()} ${msg.replace(/[\r\n]+/g, " ")}`;
  for (const key in fields) {
    const value = fields[key];
    if (value !== undefined) line += ` ${key}=${textValue(value)}`;
  }
  return line;
}

const jsonLine = (time: string, level: Level, msg: string, fields: LogFields) => JSON.stringify({ time, level, msg, ...fields });

export function createLogger(options: { level: LogLevel; format: LogFormat }, sink: LogSink = standardSink): Logger {
  const threshold = RANK[options.level];
  const format = options.format === "json" ? jsonLine : textLine;
  const enabled = (level: Level) => RANK[level] >= threshold;
  const at = (level: Level) => (msg: string, fields: LogFields = {}) => {
    if (enabled(level)) sink(level, format(new Date().toISOString(), level, msg, fields));
  };
  return { enabled, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/**
 * What a thrown error may put in a log: its name, message and stack frames. A failed drizzle
 * query's message ends with the bound parameters (password hashes, message text): cut them.
 */
export function errorFields(error: unknown): LogFields {
  if (!(error instanceof Error)) return { error: String(error).slice(0, 500) };
  const message = error.message.split(/\nparams:/)[0]!.slice(0, 1000);
  const frames = (error.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line)).slice(0, 20).map((line) => line.trim());
  const cause = error.cause instanceof Error ? `${error.cause.name}: ${error.cause.message.slice(0, 500)}` : undefined;
  return { error: `${error.name}: ${message}`, cause, stack: frames.join(" | ") || undefined };
}
