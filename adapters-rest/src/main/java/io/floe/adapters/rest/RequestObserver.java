package io.floe.adapters.rest;

/** Hears of every request the server answered: what metrics are made of. */
@FunctionalInterface
public interface RequestObserver {
  /**
   * One answered request. {@code route} is the template that matched ({@code
   * /iceberg/v1/{prefix}/namespaces/{namespace}/tables/{table}}), never the path itself, so that
   * names stay out of metrics and their number stays bounded; {@code "unmatched"} when none did.
   */
  void answered(String method, String route, int status, double millis);
}
