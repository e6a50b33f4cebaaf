package io.floe.bootstrap;

import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.StackTraceElementProxy;

/**
 * {@code %escapedException} in the text log's pattern: a stack trace as logback writes it, one
 * line a frame, but the message of every exception in it (which may quote what a client sent)
 * escaped like the log's messages ({@link LogText}).
 */
public final class EscapedThrowableConverter extends ThrowableProxyConverter {
  @Override
  protected String throwableProxyToString(IThrowableProxy proxy) {
    return super.throwableProxyToString(new Escaped(proxy));
  }

  /** An exception as logback sees it, with its message, its cause's and so on escaped. */
  private record Escaped(IThrowableProxy proxy) implements IThrowableProxy {
    @Override
    public String getMessage() {
      return LogText.escape(proxy.getMessage());
    }

    @Override
    public String getOverridingMessage() {
      return LogText.escape(proxy.getOverridingMessage());
    }

    @Override
    public String getClassName() {
      return proxy.getClassName();
    }

    @Override
    public StackTraceElementProxy[] getStackTraceElementProxyArray() {
      return proxy.getStackTraceElementProxyArray();
    }

    @Override
    public int getCommonFrames() {
      return proxy.getCommonFrames();
    }

    @Override
    public IThrowableProxy getCause() {
      return proxy.getCause() == null ? null : new Escaped(proxy.getCause());
    }

    @Override
    public IThrowableProxy[] getSuppressed() {
      IThrowableProxy[] suppressed = proxy.getSuppressed();
      if (suppressed == null) {
        return null;
      }
      IThrowableProxy[] escaped = new IThrowableProxy[suppressed.length];
      for (int i = 0; i < suppressed.length; i++) {
        escaped[i] = new Escaped(suppressed[i]);
      }
      return escaped;
    }

    @Override
    public boolean isCyclic() {
      return proxy.isCyclic();
    }
  }
}
