package io.floe.adapters.messaging.webhook;

import io.floe.application.model.SubscriptionTarget;
import io.floe.application.port.out.DeliveryChannel;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Webhook deliveries with the JDK's HTTP client: no redirect followed (a 3xx is a failed
 * delivery, never a way to another address), one bound on the whole attempt (connecting, sending
 * and the answer's status together; connecting alone has a shorter one), and none of the answer's
 * body read: only its status counts, so the stream is closed at once (the connection dropped)
 * and a receiver that sends an endless or slow body holds nothing. A {@code 2xx} acknowledges.
 */
public final class HttpWebhookChannel implements DeliveryChannel<SubscriptionTarget.Webhook> {
  private final HttpClient client;
  private final Duration attemptTimeout;

  /**
   * {@code connectTimeout} bounds connecting, {@code attemptTimeout} the whole attempt, however
   * the receiver spreads its time (a receiver that accepts the connection and never answers is
   * given up on after it).
   */
  public HttpWebhookChannel(Duration connectTimeout, Duration attemptTimeout) {
    this.client = HttpClient.newBuilder()
        .followRedirects(HttpClient.Redirect.NEVER)
        .connectTimeout(connectTimeout.compareTo(attemptTimeout) < 0 ? connectTimeout
            : attemptTimeout)
        .version(HttpClient.Version.HTTP_1_1)
        .build();
    this.attemptTimeout = attemptTimeout;
  }

  @Override
  public Outcome deliver(SubscriptionTarget.Webhook target, Optional<String> password,
      Message message) {
    CompletableFuture<HttpResponse<InputStream>> answer;
    try {
      HttpRequest.Builder request = HttpRequest.newBuilder(target.url()).timeout(attemptTimeout)
          .POST(HttpRequest.BodyPublishers.ofByteArray(message.body()))
          .header("User-Agent", "floe-webhooks");
      message.headers().forEach(request::header);
      answer = client.sendAsync(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (IllegalArgumentException e) {
      return failure("the request could not be made: " + e.getMessage());
    }
    try {
      // The client's own timeouts end the exchange; this wait is the attempt's one bound.
      HttpResponse<InputStream> response = answer.get(attemptTimeout.toMillis(),
          TimeUnit.MILLISECONDS);
      response.body().close();
      int status = response.statusCode();
      return status >= 200 && status < 300 ? Outcome.acknowledged(Optional.of(status))
          : Outcome.failed(Optional.of(status), "the receiver answered " + status);
    } catch (TimeoutException e) {
      answer.cancel(true);
      return failure("the receiver did not answer in time");
    } catch (InterruptedException e) {
      answer.cancel(true);
      Thread.currentThread().interrupt();
      return failure("interrupted while delivering");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (cause instanceof HttpConnectTimeoutException) {
        return failure("could not connect to the receiver in time");
      }
      if (cause instanceof HttpTimeoutException) {
        return failure("the receiver did not answer in time");
      }
      return failure("could not reach the receiver: " + cause.getClass().getSimpleName()
          + (cause.getMessage() == null ? "" : ": " + cause.getMessage()));
    } catch (IOException e) {
      return failure("could not close the answer: " + e.getMessage());
    }
  }

  private static Outcome failure(String why) {
    return Outcome.failed(Optional.empty(), why);
  }
}
