package io.floe.bootstrap;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.floe.adapters.rest.http.RequestTracing;

/**
 * {@code %requestId} in the log pattern: " [id]" for a line logged while a request runs, nothing
 * otherwise. The same could be said with {@code %replace}, but that runs a regular expression over
 * every line, a few percent of the CPU of a hot load.
 */
public final class RequestIdConverter extends ClassicConverter {
  @Override
  public String convert(ILoggingEvent event) {
    String id = event.getMDCPropertyMap().get(RequestTracing.MDC_KEY);
    return id == null || id.isEmpty() ? "" : " [" + id + "]";
  }
}
