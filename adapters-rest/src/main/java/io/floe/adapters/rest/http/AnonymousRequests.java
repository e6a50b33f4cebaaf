package io.floe.adapters.rest.http;

import java.util.Set;
import java.util.concurrent.Semaphore;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * A cap on the requests in Floe's routes that carry no credentials (neither an
 * {@code Authorization} header nor a web session cookie): at most {@value #MAX} at a time, each
 * holding its place until it ends; one that finds every place taken is refused with 429 and
 * {@code Retry-After} ({@link RetryAfter}). Anybody can send such requests, so together they may
 * hold only part of the request threads, and callers with credentials always find threads left.
 *
 * <p>A request with credentials takes no place: its route checks them before anything else and
 * before it reads a body ({@link RequestInput#body}), so a wrong token is a prompt 401 and cannot
 * hold a thread either. The probes ({@link RequestThreads#PROBES}) take no place.
 */
final class AnonymousRequests extends Handler.Wrapper {
  static final int MAX = 32;

  private final Semaphore places = new Semaphore(MAX);
  private final Set<String> exempt;
  private final String sessionCookie;

  AnonymousRequests(Handler next, Set<String> exempt, String sessionCookie) {
    super(next);
    this.exempt = exempt;
    this.sessionCookie = sessionCookie;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (hasCredentials(request) || exempt.contains(Request.getPathInContext(request))) {
      return super.handle(request, response, callback);
    }
    if (!places.tryAcquire()) {
      Response.writeError(request, response, callback, HttpStatus.TOO_MANY_REQUESTS_429,
          "Too many requests without credentials are in progress; retry shortly");
      return true;
    }
    Request.addCompletionListener(request, failure -> places.release());
    return super.handle(request, response, callback);
  }

  private boolean hasCredentials(Request request) {
    if (request.getHeaders().contains(HttpHeader.AUTHORIZATION)) {
      return true;
    }
    if (!request.getHeaders().contains(HttpHeader.COOKIE)) {
      return false;
    }
    for (HttpCookie cookie : Request.getCookies(request)) {
      if (cookie.getName().equals(sessionCookie)) {
        return true;
      }
    }
    return false;
  }
}
