package io.floe.adapters.rest.s3;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.floe.application.model.PreconditionFailedException;
import io.floe.application.port.in.repo.RepoObjectsUseCase;
import io.floe.application.port.in.repo.RepoObjectsUseCase.RepoObjectSession;
import io.floe.application.port.out.RefusedLocationException;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3ErrorCode;
import org.gaul.s3proxy.S3ErrorResponses;
import org.gaul.s3proxy.S3Exception;
import org.gaul.s3proxy.S3ProxyHandler;
import org.jclouds.blobstore.BlobStore;

/**
 * The S3 endpoint of local buckets: repos on a directory of the server, served to the clients
 * that write Icechunk repositories themselves (the arraylake client, Python icechunk), and a
 * table's files, served to the Spark maintenance job of that table. It holds one bucket,
 * {@value #BUCKET}, at {@code <server>/}{@value #BUCKET} (path-style), and answers only requests
 * signed (SigV4) with credentials Floe vended for one prefix (a repo's, or a job's table's): the
 * access key id says which prefix they reach, the signature is checked with the secret Floe issued for it, and
 * every key is confined to that prefix ({@link RepoObjectsUseCase}). s3proxy's handler speaks the
 * protocol: objects (GET with a byte range, HEAD, PUT with If-Match and If-None-Match, DELETE),
 * ListObjects (v1 and v2) and DeleteObjects. Errors are S3's XML documents.
 */
public final class LocalBucketEndpoint implements Consumer<RoutesConfig> {
  /** The endpoint's one bucket, and its path under the server's root. */
  public static final String BUCKET = "floe-local-bucket";
  public static final String PATH = "/" + BUCKET;
  /** S3's own limit for one PUT; bodies stream to disk, so size costs no memory. */
  static final long MAX_OBJECT_BYTES = 5L * 1024 * 1024 * 1024;
  /**
   * A body whose signature covers its SHA-256 is held in memory until the digest is checked:
   * at most this much for one request, and at most {@link #BUFFERED_BYTES} for all at once.
   */
  static final int MAX_BUFFERED_BODY = 32 * 1024 * 1024;
  static final int BUFFERED_BYTES = 64 * 1024 * 1024;
  private static final int MAX_CLOCK_SKEW_SECONDS = 15 * 60;
  private static final String CONTENT_SHA256 = "x-amz-content-sha256";
  private static final String DECODED_LENGTH = "x-amz-decoded-content-length";
  private static final String SIGNED_CHUNKS = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD";
  /**
   * The streamed payload forms taken, each checked chunk by chunk ({@link AwsChunkedBody}). The
   * one with signed chunks and a signed trailer is not: the handler's check of the request's
   * own signature does not know it.
   */
  private static final java.util.Set<String> STREAMED_PAYLOADS = java.util.Set.of(
      SIGNED_CHUNKS, "STREAMING-UNSIGNED-PAYLOAD-TRAILER");
  /** The key id, the scope and the signature of a header-signed request. */
  private static final java.util.regex.Pattern AUTHORIZATION = java.util.regex.Pattern.compile(
      "^AWS4-HMAC-SHA256 .*Credential=([^/,\\s]+)/([0-9]{8}/[^/,\\s]+/[^/,\\s]+/aws4_request)"
          + ".*Signature=([0-9a-f]{64})");

  private final RepoObjectsUseCase objects;
  private final S3ProxyHandler handler;
  private final Semaphore buffered = new Semaphore(BUFFERED_BYTES);

  public LocalBucketEndpoint(RepoObjectsUseCase objects) {
    this.objects = objects;
    // The handler's own identity is never used: the locator below answers for every key id.
    this.handler = new S3ProxyHandler(new RepoObjectsBlobStore(Refusing.SESSION),
        AuthenticationType.AWS_V4, UUID.randomUUID().toString(), UUID.randomUUID().toString(),
        null, MAX_OBJECT_BYTES, MAX_BUFFERED_BODY, true, null, "", MAX_CLOCK_SKEW_SECONDS);
    this.handler.setBlobStoreLocator((accessKeyId, bucket, key) -> objects.session(accessKeyId)
        .map(session -> Map.<String, BlobStore>entry(session.secretAccessKey(),
            new RepoObjectsBlobStore(session)))
        .orElse(null));
  }

  @Override
  public void accept(RoutesConfig routes) {
    Handler serve = this::serve;
    for (String path : List.of(PATH, PATH + "/*")) {
      routes.get(path, serve);
      routes.head(path, serve);
      routes.put(path, serve);
      routes.post(path, serve);
      routes.delete(path, serve);
    }
  }

  private void serve(Context ctx) throws IOException {
    HttpServletRequest request = ctx.req();
    HttpServletResponse response = new StreamOnlyResponse(ctx.res());
    if (request.getHeader("Authorization") == null
        && request.getParameter("X-Amz-Algorithm") == null) {
      // Nothing here is public: the handler would otherwise look for public-read objects.
      S3ErrorResponses.send(handler, request, response, S3ErrorCode.ACCESS_DENIED,
          "Floe's S3 endpoint answers only requests signed with credentials Floe vended for a "
              + "repo (GET /repos/{org}/{repo}/bucket-credentials)");
      return;
    }
    Optional<String> payloadProblem = payloadProblem(request);
    if (payloadProblem.isPresent()) {
      S3ErrorResponses.send(handler, request, response, S3ErrorCode.INVALID_REQUEST,
          payloadProblem.get());
      return;
    }
    int reserved = bufferedBytes(request);
    if (!reserve(reserved)) {
      slowDown(response);
      return;
    }
    Optional<StreamedUpload> streamed;
    try {
      streamed = streamedUpload(request);
    } catch (AwsChunkedBody.Refused | IllegalArgumentException e) {
      S3ErrorResponses.send(handler, request, response, S3ErrorCode.INVALID_REQUEST,
          e.getMessage());
      return;
    }
    try (InputStream body = streamed.isPresent() ? streamed.get().body()
        : request.getInputStream()) {
      // The signature is checked on the request as sent; the handler reads the body decoded.
      handler.doHandle(request, streamed.isPresent() ? streamed.get().request() : request,
          response, body, null);
    } catch (S3Exception e) {
      S3ErrorResponses.send(handler, request, response, e);
    } catch (AwsChunkedBody.Refused e) {
      S3ErrorResponses.send(handler, request, response, S3ErrorCode.INVALID_REQUEST,
          e.getMessage());
    } catch (JsonProcessingException e) {
      S3ErrorResponses.send(handler, request, response, S3ErrorCode.MALFORMED_X_M_L,
          "The request's XML body is malformed");
    } catch (RuntimeException e) {
      refuse(request, response, e);
    } finally {
      buffered.release(reserved);
    }
  }

  /**
   * Why the handler cannot take the body as announced: a header-signed request must say how its
   * payload is signed (x-amz-content-sha256), and of the streaming forms only those whose chunks
   * the handler decodes are taken.
   */
  private static Optional<String> payloadProblem(HttpServletRequest request) {
    if (request.getHeader("Authorization") == null) {
      return Optional.empty();
    }
    String declared = request.getHeader("x-amz-content-sha256");
    if (declared == null) {
      return Optional.of("A signed request must carry x-amz-content-sha256");
    }
    if (declared.startsWith("STREAMING-") && !STREAMED_PAYLOADS.contains(declared)) {
      return Optional.of("The payload form " + declared + " is not accepted here: send the "
          + "body's SHA-256, UNSIGNED-PAYLOAD, STREAMING-AWS4-HMAC-SHA256-PAYLOAD or "
          + "STREAMING-UNSIGNED-PAYLOAD-TRAILER");
    }
    return Optional.empty();
  }

  /**
   * An {@code aws-chunked} upload: its body decoded and checked as it is read
   * ({@link AwsChunkedBody}: each chunk's signature, the decoded length, the trailing checksum),
   * and the request as the handler is to see it, whose payload the handler must not decode
   * again. Empty for a request whose body is not streamed.
   *
   * @throws AwsChunkedBody.Refused for a streamed upload that cannot be checked as sent
   */
  private Optional<StreamedUpload> streamedUpload(HttpServletRequest request)
      throws IOException {
    String declared = request.getHeader(CONTENT_SHA256);
    if (declared == null || !STREAMED_PAYLOADS.contains(declared)) {
      return Optional.empty();
    }
    if (request.getHeader("Authorization") == null) {
      throw new AwsChunkedBody.Refused("a streamed upload must be signed in its Authorization "
          + "header");
    }
    long decodedLength;
    try {
      decodedLength = Long.parseLong(String.valueOf(request.getHeader(DECODED_LENGTH)).strip());
    } catch (NumberFormatException e) {
      throw new AwsChunkedBody.Refused("a streamed upload must carry its length as "
          + DECODED_LENGTH);
    }
    if (decodedLength < 0 || decodedLength > MAX_OBJECT_BYTES) {
      throw new AwsChunkedBody.Refused(DECODED_LENGTH + " must be 0 to " + MAX_OBJECT_BYTES);
    }
    String trailerName = request.getHeader("x-amz-trailer");
    Optional<AwsChunkedBody.TrailerChecksum> trailer = Optional.empty();
    if (trailerName != null) {
      trailer = AwsChunkedBody.TrailerChecksum.of(trailerName);
      if (trailer.isEmpty() || declared.equals(SIGNED_CHUNKS)) {
        throw new AwsChunkedBody.Refused("the trailing checksum " + trailerName + " is not "
            + "checked here: send x-amz-checksum-crc32, -crc32c, -sha1 or -sha256 with "
            + "STREAMING-UNSIGNED-PAYLOAD-TRAILER, or none");
      }
    }
    Optional<AwsChunkedBody.ChunkSigner> signer = Optional.empty();
    if (declared.equals(SIGNED_CHUNKS)) {
      signer = Optional.of(chunkSigner(request));
    }
    AwsChunkedBody body = AwsChunkedBody.open(request.getInputStream(), decodedLength, signer,
        trailer);
    return Optional.of(new StreamedUpload(body, new DecodedPayloadRequest(request)));
  }

  /** The chain of chunk signatures seeded by the request's own signature and key. */
  private AwsChunkedBody.ChunkSigner chunkSigner(HttpServletRequest request)
      throws AwsChunkedBody.Refused {
    java.util.regex.Matcher auth = AUTHORIZATION.matcher(request.getHeader("Authorization"));
    String amzDate = request.getHeader("x-amz-date");
    if (!auth.find() || amzDate == null) {
      throw new AwsChunkedBody.Refused("signed chunks need an AWS4-HMAC-SHA256 Authorization "
          + "header with its Credential and Signature, and x-amz-date");
    }
    String secret = objects.session(auth.group(1)).map(RepoObjectSession::secretAccessKey)
        .orElseThrow(() -> new AwsChunkedBody.Refused("the access key id is not one Floe "
            + "vended, or it expired"));
    return new AwsChunkedBody.ChunkSigner(secret, amzDate, auth.group(2), auth.group(3));
  }

  private record StreamedUpload(InputStream body, HttpServletRequest request) {}

  /** The request with its body already decoded: the handler takes it as it comes. */
  private static final class DecodedPayloadRequest extends HttpServletRequestWrapper {
    DecodedPayloadRequest(HttpServletRequest request) {
      super(request);
    }

    @Override
    public String getHeader(String name) {
      return CONTENT_SHA256.equalsIgnoreCase(name) ? "UNSIGNED-PAYLOAD" : super.getHeader(name);
    }
  }

  /** What a request whose body the handler buffers to check its digest reserves of the budget. */
  private static int bufferedBytes(HttpServletRequest request) {
    String digest = request.getHeader("x-amz-content-sha256");
    if (digest == null || "UNSIGNED-PAYLOAD".equals(digest) || STREAMED_PAYLOADS.contains(digest)
        || request.getHeader("Authorization") == null) {
      return 0;
    }
    long length = request.getContentLengthLong();
    return (int) (length < 0 ? MAX_BUFFERED_BODY : Math.min(length, MAX_BUFFERED_BODY));
  }

  private boolean reserve(int bytes) {
    try {
      return bytes == 0 || buffered.tryAcquire(bytes, 30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** S3's answer when it is busy: nothing was done, try again shortly. */
  private static void slowDown(HttpServletResponse response) throws IOException {
    response.setStatus(503);
    response.setHeader("Retry-After", "1");
    response.setContentType("application/xml");
    PrintWriter writer = response.getWriter();
    writer.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>SlowDown</Code>"
        + "<Message>Too many uploads are being checked at once; retry shortly</Message>"
        + "</Error>\n");
    writer.flush();
  }

  /** Floe's refusals, raised by the session or the blob store, as S3 errors. */
  private void refuse(HttpServletRequest request, HttpServletResponse response,
      RuntimeException error) throws IOException {
    if (error instanceof RepoObjectsBlobStore.NotModifiedException) {
      response.setStatus(304);
      return;
    }
    S3ErrorCode code = codeOf(error).orElseThrow(() -> error);
    S3ErrorResponses.send(handler, request, response, code, error.getMessage());
  }

  private static Optional<S3ErrorCode> codeOf(RuntimeException error) {
    if (error instanceof ForbiddenException || error instanceof RefusedLocationException) {
      return Optional.of(S3ErrorCode.ACCESS_DENIED);
    }
    if (error instanceof PreconditionFailedException) {
      return Optional.of(S3ErrorCode.PRECONDITION_FAILED);
    }
    if (error instanceof ByteRanges.RangeNotSatisfiableException) {
      return Optional.of(S3ErrorCode.INVALID_RANGE);
    }
    if (error instanceof RepoObjectsBlobStore.NoSuchBucketException) {
      return Optional.of(S3ErrorCode.NO_SUCH_BUCKET);
    }
    if (error instanceof UnsupportedOperationException) {
      return Optional.of(S3ErrorCode.NOT_IMPLEMENTED);
    }
    if (error instanceof BadRequestException || error instanceof IllegalArgumentException
        || error instanceof UncheckedIOException) {
      return Optional.of(S3ErrorCode.INVALID_REQUEST);
    }
    return Optional.empty();
  }

  /**
   * The response as the handler writes it, with its text written to the output stream: Javalin
   * takes the output stream after every route, which a servlet response refuses once its writer
   * was used.
   */
  private static final class StreamOnlyResponse extends HttpServletResponseWrapper {
    private PrintWriter writer;

    StreamOnlyResponse(HttpServletResponse response) {
      super(response);
    }

    @Override
    public PrintWriter getWriter() throws IOException {
      if (writer == null) {
        writer = new PrintWriter(new OutputStreamWriter(getOutputStream(),
            StandardCharsets.UTF_8));
      }
      return writer;
    }
  }

  /** The blob store of the handler's own identity, which no request can sign for. */
  private static final class Refusing {
    static final RepoObjectSession SESSION = (RepoObjectSession) java.lang.reflect.Proxy
        .newProxyInstance(RepoObjectSession.class.getClassLoader(),
            new Class<?>[] {RepoObjectSession.class}, (self, method, args) -> {
              throw new ForbiddenException("Nothing is reachable without credentials");
            });
  }
}
