package io.floe.adapters.rest.webhooks;

import io.floe.application.port.out.WebhookSender;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Webhook requests with the JDK's HTTP client: no redirect followed (a 3xx is a failed
 * delivery, never a way to another address), a bound on connecting and on the time until the
 * answer's status arrives, and none of the answer's body read: only its status counts, so the
 * stream is closed at once (the connection dropped) and a receiver that sends an endless or
 * slow body holds nothing.
 */
public final class JdkWebhookSender implements WebhookSender {
  private final HttpClient client;
  private final Duration answerTimeout;

  public JdkWebhookSender(Duration connectTimeout, Duration answerTimeout) {
    this.client = HttpClient.newBuilder()
        .followRedirects(HttpClient.Redirect.NEVER)
        .connectTimeout(connectTimeout)
        .version(HttpClient.Version.HTTP_1_1)
        .build();
    this.answerTimeout = answerTimeout;
  }

  @Override
  public Response post(URI url, Map<String, String> headers, byte[] body) {
    HttpRequest.Builder request = HttpRequest.newBuilder(url).timeout(answerTimeout)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
        .header("User-Agent", "floe-webhooks");
    headers.forEach(request::header);
    try {
      HttpResponse<InputStream> response = client.send(request.build(),
          HttpResponse.BodyHandlers.ofInputStream());
      response.body().close();
      return new Response(Optional.of(response.statusCode()), Optional.empty());
    } catch (HttpTimeoutException e) {
      return failure("the receiver did not answer in time");
    } catch (IOException e) {
      return failure("could not reach the receiver: " + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : ": " + e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return failure("interrupted while delivering");
    } catch (IllegalArgumentException e) {
      return failure("the request could not be made: " + e.getMessage());
    }
  }

  private static Response failure(String why) {
    return new Response(Optional.empty(), Optional.of(why));
  }
}
