import { describe, expect, test } from "bun:test";
import { MetricsRegistry } from "../../src/observability/registry.ts";

describe("the metrics registry", () => {
  test("writes counters and collected gauges with HELP and TYPE lines", () => {
    const registry = new MetricsRegistry();
    const stored = registry.counter("app_messages_total", "Messages.");
    let open = 3;
    registry.collect("app_open", "Open things.", "gauge", () => open);
    stored.inc();
    stored.inc(2);
    open = 5;
    expect(registry.render()).toBe(["# HELP app_messages_total Messages.", "# TYPE app_messages_total counter", "app_messages_total 3", "# HELP app_open Open things.", "# TYPE app_open gauge", "app_open 5", ""].join("\n"));
  });

  test("writes cumulative histogram buckets, counting a value equal to a bound in that bucket", () => {
    const registry = new MetricsRegistry();
    const latency = registry.histogram("app_seconds", "Latency.", [0.01, 0.1, 1]);
    for (const value of [0.005, 0.01, 0.05, 2]) latency.observe(value);
    const lines = registry.render().split("\n");
    expect(lines).toContain('app_seconds_bucket{le="0.01"} 2');
    expect(lines).toContain('app_seconds_bucket{le="0.1"} 3');
    expect(lines).toContain('app_seconds_bucket{le="1"} 3');
    expect(lines).toContain('app_seconds_bucket{le="+Inf"} 4');
    expect(lines).toContain("app_seconds_count 4");
    expect(Number(lines.find((l) => l.startsWith("app_seconds_sum"))!.split(" ")[1])).toBeCloseTo(2.065, 9);
  });

  test("escapes label values and keeps a hot-path child and a looked-up one the same series", () => {
    const registry = new MetricsRegistry();
    const refusals = registry.labelledCounter("app_refusals_total", "Refusals.", ["scope", "limiter"]);
    const hot = refusals.child({ scope: "socket", limiter: "frames" });
    hot.inc();
    refusals.inc({ scope: "socket", limiter: "frames" });
    refusals.inc({ scope: "http", limiter: 'POST /a"b\\c\nd' });
    const text = registry.render();
    expect(text).toContain('app_refusals_total{scope="socket",limiter="frames"} 2');
    expect(text).toContain('app_refusals_total{scope="http",limiter="POST /a\\"b\\\\c\\nd"} 1');
  });

  test("folds label sets past its cap into one \"other\" series, so memory stays bounded", () => {
    const registry = new MetricsRegistry();
    const counter = registry.labelledCounter("app_total", "Things.", ["key"]);
    for (let i = 0; i < 1000; i++) counter.inc({ key: `k${i}` });
    const series = registry.render().split("\n").filter((l) => l.startsWith("app_total{"));
    expect(series.length).toBe(201);
    expect(series).toContain('app_total{key="other"} 800');
  });

  test("refuses a name registered twice or one Prometheus cannot parse", () => {
    const registry = new MetricsRegistry();
    registry.counter("app_total", "Things.");
    expect(() => registry.counter("app_total", "Again.")).toThrow(/twice/);
    expect(() => registry.counter("app-total", "Dash.")).toThrow(/Invalid/);
  });
});
