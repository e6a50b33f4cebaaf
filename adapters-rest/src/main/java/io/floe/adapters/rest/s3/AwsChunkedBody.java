package io.floe.adapters.rest.s3;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The decoded body of an {@code aws-chunked} upload, checked as it is read: each chunk's SigV4
 * signature (the chain seeded by the request's own signature), that the chunks add up to exactly
 * {@code x-amz-decoded-content-length}, and the trailing checksum the request announced. A body
 * that fails any check ends in an {@link IOException} before its last byte is handed out, so a
 * writer that reads the announced length (and renames its file into place only then) stores
 * nothing of it.
 */
final class AwsChunkedBody extends InputStream {
  /** A chunk's size line: hex digits, and a signature or extension, never longer than this. */
  private static final int MAX_LINE = 4096;
  /** Trailer lines at most; a request names one checksum. */
  private static final int MAX_TRAILER_LINES = 4;
  private static final String EMPTY_SHA256 =
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

  private final InputStream wire;
  private final long decodedLength;
  private final Optional<ChunkSigner> signer;
  private final Optional<TrailerChecksum> trailer;
  private MessageDigest chunkDigest;
  private String chunkSignature;
  private long remainingInChunk;
  private long decoded;
  private boolean finished;

  private AwsChunkedBody(InputStream wire, long decodedLength, Optional<ChunkSigner> signer,
      Optional<TrailerChecksum> trailer) {
    this.wire = wire;
    this.decodedLength = decodedLength;
    this.signer = signer;
    this.trailer = trailer;
  }

  /**
   * The body of {@code wire}, whose chunks {@code signer} checks (empty for unsigned chunks) and
   * whose trailer carries {@code trailer}'s checksum (empty for none). An empty body is checked
   * whole here: a writer reads none of it.
   */
  static AwsChunkedBody open(InputStream wire, long decodedLength, Optional<ChunkSigner> signer,
      Optional<TrailerChecksum> trailer) throws IOException {
    AwsChunkedBody body = new AwsChunkedBody(wire, decodedLength, signer, trailer);
    if (decodedLength == 0) {
      body.nextChunk();
      if (!body.finished) {
        throw new Refused("the chunks hold more than the x-amz-decoded-content-length of 0");
      }
    }
    return body;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    if (length == 0) {
      return 0;
    }
    if (remainingInChunk == 0) {
      if (finished) {
        return -1;
      }
      nextChunk();
      if (finished) {
        return -1;
      }
    }
    // The last byte of a chunk is handed out only once the chunk (and, for the last chunk, the
    // whole body) is checked: a reader that stops at the announced length has seen every check.
    int wanted = (int) Math.min(length, remainingInChunk - 1);
    if (wanted == 0) {
      int last = wire.read();
      if (last < 0) {
        throw truncated();
      }
      buffer[offset] = (byte) last;
      consumed(buffer, offset, 1);
      endChunk();
      return 1;
    }
    int n = wire.read(buffer, offset, wanted);
    if (n < 0) {
      throw truncated();
    }
    consumed(buffer, offset, n);
    return n;
  }

  private void consumed(byte[] buffer, int offset, int n) {
    remainingInChunk -= n;
    decoded += n;
    if (chunkDigest != null) {
      chunkDigest.update(buffer, offset, n);
    }
    trailer.ifPresent(checksum -> checksum.update(buffer, offset, n));
  }

  /** Reads the next chunk's size line; a last (empty) chunk ends the body, checked whole. */
  private void nextChunk() throws IOException {
    String line = line();
    int semicolon = line.indexOf(';');
    String size = semicolon < 0 ? line : line.substring(0, semicolon);
    long length;
    try {
      length = Long.parseLong(size.strip(), 16);
    } catch (NumberFormatException e) {
      throw new Refused("a chunk's size '" + printable(size) + "' is no hexadecimal number");
    }
    if (length < 0 || length > decodedLength - decoded) {
      throw new Refused("the chunks hold more than the x-amz-decoded-content-length of "
          + decodedLength);
    }
    chunkSignature = null;
    if (signer.isPresent()) {
      String extension = semicolon < 0 ? "" : line.substring(semicolon + 1).strip();
      if (!extension.startsWith("chunk-signature=")) {
        throw new Refused("a signed chunk carries no chunk-signature");
      }
      chunkSignature = extension.substring("chunk-signature=".length());
      chunkDigest = sha256();
    }
    if (length == 0) {
      if (decoded != decodedLength) {
        throw truncated();
      }
      verifyChunkSignature();
      endBody();
      return;
    }
    remainingInChunk = length;
  }

  /** The CRLF after a chunk's data, its signature; after the last data, the rest of the body. */
  private void endChunk() throws IOException {
    requireCrlf();
    verifyChunkSignature();
    if (decoded == decodedLength) {
      String line = line();
      if (!line.equals("0") && !line.startsWith("0;")) {
        throw new Refused("the chunks hold more than the x-amz-decoded-content-length of "
            + decodedLength);
      }
      if (signer.isPresent()) {
        int at = line.indexOf(";chunk-signature=");
        if (at < 0) {
          throw new Refused("a signed chunk carries no chunk-signature");
        }
        chunkSignature = line.substring(at + ";chunk-signature=".length()).strip();
        chunkDigest = sha256();
        verifyChunkSignature();
      }
      endBody();
    }
  }

  private void verifyChunkSignature() throws IOException {
    if (signer.isEmpty()) {
      return;
    }
    String expected = signer.get().next(HexFormat.of().formatHex(chunkDigest.digest()));
    if (!MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
        chunkSignature.getBytes(StandardCharsets.US_ASCII))) {
      throw new Refused("a chunk's signature does not match its bytes (SignatureDoesNotMatch)");
    }
  }

  /** The trailer (its checksum compared) and the blank line that ends the body. */
  private void endBody() throws IOException {
    Optional<String> sent = Optional.empty();
    for (int lines = 0; ; lines++) {
      String line = line();
      if (line.isEmpty()) {
        break;
      }
      if (lines == MAX_TRAILER_LINES) {
        throw new Refused("the body's trailer holds more than " + MAX_TRAILER_LINES + " lines");
      }
      int colon = line.indexOf(':');
      String name = colon < 0 ? line : line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
      if (trailer.isPresent() && name.equals(trailer.get().header())) {
        sent = Optional.of(line.substring(colon + 1).strip());
      } else if (!name.equals("x-amz-trailer-signature")) {
        throw new Refused("the body's trailer holds '" + printable(name) + "', which the "
            + "request's x-amz-trailer did not announce");
      }
    }
    if (trailer.isPresent()) {
      TrailerChecksum checksum = trailer.get();
      if (sent.isEmpty()) {
        throw new Refused("the body's trailer lacks the " + checksum.header()
            + " the request announced");
      }
      if (!sent.get().equals(checksum.value())) {
        throw new Refused("the body's " + checksum.header() + " does not match its bytes "
            + "(BadDigest)");
      }
    }
    if (wire.read() != -1) {
      throw new Refused("bytes follow the body's last chunk and trailer");
    }
    finished = true;
  }

  private void requireCrlf() throws IOException {
    if (wire.read() != '\r' || wire.read() != '\n') {
      throw new Refused("a chunk's data does not end where its size says");
    }
  }

  /** A line of the framing, without its CRLF. */
  private String line() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while (true) {
      int b = wire.read();
      if (b < 0) {
        throw truncated();
      }
      if (b == '\r') {
        if (wire.read() != '\n') {
          throw new Refused("a line of the chunked framing does not end in CRLF");
        }
        return out.toString(StandardCharsets.US_ASCII);
      }
      if (out.size() == MAX_LINE) {
        throw new Refused("a line of the chunked framing is longer than " + MAX_LINE + " bytes");
      }
      out.write(b);
    }
  }

  private Refused truncated() {
    return new Refused("the body ended after " + decoded + " of the " + decodedLength
        + " bytes its x-amz-decoded-content-length announced");
  }

  private static String printable(String text) {
    String cut = text.length() > 40 ? text.substring(0, 40) + "..." : text;
    return cut.replaceAll("[^\\x20-\\x7e]", "?");
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Why a body was refused: the client's error, never stored. */
  static final class Refused extends IOException {
    Refused(String message) {
      super("aws-chunked body refused: " + message);
    }
  }

  /**
   * The SigV4 chain of chunk signatures: each chunk is signed over the previous signature (the
   * first over the request's own), the request's date and scope, and the chunk's SHA-256.
   */
  static final class ChunkSigner {
    private final byte[] signingKey;
    private final String amzDate;
    private final String scope;
    private String previous;

    /**
     * @param secret the secret of the access key that signed the request
     * @param amzDate the request's {@code x-amz-date}
     * @param scope {@code <yyyyMMdd>/<region>/<service>/aws4_request} of its credential
     * @param seed the request's signature
     */
    ChunkSigner(String secret, String amzDate, String scope, String seed) {
      String[] parts = scope.split("/", -1);
      if (parts.length != 4 || !parts[3].equals("aws4_request")) {
        throw new IllegalArgumentException("a credential scope is <date>/<region>/<service>/"
            + "aws4_request");
      }
      byte[] key = ("AWS4" + secret).getBytes(StandardCharsets.UTF_8);
      for (int i = 0; i < 4; i++) {
        key = hmac(key, parts[i]);
      }
      this.signingKey = key;
      this.amzDate = amzDate;
      this.scope = scope;
      this.previous = seed;
    }

    /** The signature the next chunk, of SHA-256 {@code chunkSha256} (hex), must carry. */
    String next(String chunkSha256) {
      String toSign = "AWS4-HMAC-SHA256-PAYLOAD\n" + amzDate + "\n" + scope + "\n" + previous
          + "\n" + EMPTY_SHA256 + "\n" + chunkSha256;
      previous = HexFormat.of().formatHex(hmac(signingKey, toSign));
      return previous;
    }

    private static byte[] hmac(byte[] key, String data) {
      try {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** The checksum a trailer carries, computed over the decoded bytes as they pass. */
  static final class TrailerChecksum {
    private final String header;
    private final Checksum crc;
    private final MessageDigest digest;

    private TrailerChecksum(String header, Checksum crc, MessageDigest digest) {
      this.header = header;
      this.crc = crc;
      this.digest = digest;
    }

    /** The checksum {@code x-amz-trailer} names; empty for one this endpoint cannot compute. */
    static Optional<TrailerChecksum> of(String header) {
      String name = header.strip().toLowerCase(Locale.ROOT);
      try {
        return switch (name) {
          case "x-amz-checksum-crc32" -> Optional.of(new TrailerChecksum(name, new CRC32(), null));
          case "x-amz-checksum-crc32c" ->
              Optional.of(new TrailerChecksum(name, new CRC32C(), null));
          case "x-amz-checksum-sha1" ->
              Optional.of(new TrailerChecksum(name, null, MessageDigest.getInstance("SHA-1")));
          case "x-amz-checksum-sha256" ->
              Optional.of(new TrailerChecksum(name, null, MessageDigest.getInstance("SHA-256")));
          default -> Optional.empty();
        };
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }

    String header() {
      return header;
    }

    void update(byte[] buffer, int offset, int n) {
      if (crc != null) {
        crc.update(buffer, offset, n);
      } else {
        digest.update(buffer, offset, n);
      }
    }

    /** The checksum as S3 writes it: base64 of its big-endian bytes. */
    String value() {
      byte[] bytes;
      if (crc != null) {
        long value = crc.getValue();
        bytes = new byte[] {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8),
            (byte) value};
      } else {
        bytes = digest.digest();
      }
      return Base64.getEncoder().encodeToString(bytes);
    }
  }
}
