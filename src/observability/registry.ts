// A small metrics registry that writes the Prometheus text exposition format (version 0.0.4).
// Hand-written rather than prom-client: the hot path is one property increment, and state that
// already lives in memory (sockets, roulette) is read only when someone scrapes.

export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

type MetricType = "counter" | "gauge" | "histogram";
type Labels = Readonly<Record<string, string>>;

interface Metric {
  readonly name: string;
  readonly help: string;
  readonly type: MetricType;
  write(lines: string[]): void;
}

const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
const escapeHelp = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");

function formatLabels(labels: Labels): string {
  const pairs = Object.entries(labels).map(([key, value]) => `${key}="${escapeLabel(value)}"`);
  return pairs.length ? `{${pairs.join(",")}}` : "";
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

export class Counter {
  value = 0;

  inc(by = 1): void {
    this.value += by;
  }
}

const OVERFLOW_KEY = "\u0001overflow";

/**
 * A counter with labels. Hot paths keep the child from `child()` and increment it; `inc` with
 * label values looks the child up (and allocates its key), so it is for rare events.
 */
export class LabelledCounter<L extends string> implements Metric {
  readonly type = "counter";
  private readonly children = new Map<string, { labels: Labels; counter: Counter }>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly L[],
    /** Label values come from code paths, not clients, but a cap keeps a mistake from eating memory. */
    private readonly maxChildren = 200,
  ) {}

  child(labels: Record<L, string>): Counter {
    const key = this.labelNames.map((name) => labels[name]).join("\u0000");
    const found = this.children.get(key);
    if (found) return found.counter;
    if (this.children.size >= this.maxChildren) return this.overflow();
    return this.create(key, Object.fromEntries(this.labelNames.map((name) => [name, labels[name]])));
  }

  inc(labels: Record<L, string>, by = 1): void {
    this.child(labels).inc(by);
  }

  /** Past the cap, everything new is counted under every label set to "other". */
  private overflow(): Counter {
    return this.children.get(OVERFLOW_KEY)?.counter ?? this.create(OVERFLOW_KEY, Object.fromEntries(this.labelNames.map((name) => [name, "other"])));
  }

  private create(key: string, labels: Labels): Counter {
    const counter = new Counter();
    this.children.set(key, { labels, counter });
    return counter;
  }

  write(lines: string[]): void {
    for (const { labels, counter } of this.children.values()) lines.push(`${this.name}${formatLabels(labels)} ${formatValue(counter.value)}`);
  }
}

/** Cumulative buckets are summed at scrape time; observing only bumps one slot. */
export class Histogram implements Metric {
  readonly type = "histogram";
  private readonly counts: Float64Array;
  private sum = 0;
  private count = 0;

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    let i = 0;
    while (i < this.bounds.length && value > this.bounds[i]!) i++;
    this.counts[i]! += 1;
    this.sum += value;
    this.count += 1;
  }

  write(lines: string[]): void {
    let cumulative = 0;
    this.bounds.forEach((bound, i) => {
      cumulative += this.counts[i]!;
      lines.push(`${this.name}_bucket{le="${formatValue(bound)}"} ${cumulative}`);
    });
    lines.push(`${this.name}_bucket{le="+Inf"} ${this.count}`);
    lines.push(`${this.name}_sum ${formatValue(this.sum)}`);
    lines.push(`${this.name}_count ${this.count}`);
  }
}

/** A value read when scraped, from state kept elsewhere (a map's size, a running total). */
class Collected implements Metric {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: "counter" | "gauge",
    private readonly read: () => number,
  ) {}

  write(lines: string[]): void {
    lines.push(`${this.name} ${formatValue(this.read())}`);
  }
}

export class MetricsRegistry {
  private readonly metrics = new Map<string, Metric>();

  counter(name: string, help: string): Counter {
    const counter = new Counter();
    this.add({ name, help, type: "counter", write: (lines) => lines.push(`${name} ${formatValue(counter.value)}`) });
    return counter;
  }

  labelledCounter<L extends string>(name: string, help: string, labelNames: readonly L[]): LabelledCounter<L> {
    return this.add(new LabelledCounter(name, help, labelNames));
  }

  histogram(name: string, help: string, bounds: readonly number[]): Histogram {
    return this.add(new Histogram(name, help, bounds));
  }

  /** A gauge (or a counter kept by someone else) whose value is read at scrape time. */
  collect(name: string, help: string, type: "counter" | "gauge", read: () => number): void {
    this.add(new Collected(name, help, type, read));
  }

  render(): string {
    const lines: string[] = [];
    for (const metric of this.metrics.values()) {
      lines.push(`# HELP ${metric.name} ${escapeHelp(metric.help)}`, `# TYPE ${metric.name} ${metric.type}`);
      metric.write(lines);
    }
    return lines.join("\n") + "\n";
  }

  private add<M extends Metric>(metric: M): M {
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(metric.name)) throw new Error(`Invalid metric name ${metric.name}`);
    if (this.metrics.has(metric.name)) throw new Error(`Metric ${metric.name} is registered twice`);
    this.metrics.set(metric.name, metric);
    return metric;
  }
}
