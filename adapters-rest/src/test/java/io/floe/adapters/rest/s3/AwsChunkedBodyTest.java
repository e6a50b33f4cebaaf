package io.floe.adapters.rest.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * aws-chunked bodies checked as they are read: AWS's own example of signed chunks is taken, and
 * any change to a signature, a chunk, the decoded length, the end or the trailing checksum fails
 * before the body's last byte is handed out (so a writer that reads the announced length stores
 * nothing).
 */
class AwsChunkedBodyTest {
  /** The example of AWS's SigV4 streaming documentation: its key, date, scope and seed. */
  private static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
  private static final String DATE = "20130524T000000Z";
  private static final String SCOPE = "20130524/us-east-1/s3/aws4_request";
  private static final String SEED =
      "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9";

  @Test
  void awsDocumentedChunkSignaturesAreAccepted() throws IOException {
    byte[] data = new byte[66_560];
    Arrays.fill(data, (byte) 'a');
    byte[] wire = concat(
        frame(Arrays.copyOf(data, 65_536),
            "ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648"),
        frame(Arrays.copyOf(data, 1024),
            "0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497"),
        frame(new byte[0],
            "b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9"),
        "\r\n".getBytes(StandardCharsets.US_ASCII));
    assertThat(readAnnounced(signed(wire, data.length), data.length)).isEqualTo(data);
  }

  @Test
  void aZeroedTamperedOrMissingChunkSignatureFailsBeforeTheLastByte() throws IOException {
    byte[] data = "the bytes of an Icechunk manifest".getBytes(StandardCharsets.UTF_8);
    assertThat(readAnnounced(signed(signedBody(data, 10), data.length), data.length))
        .isEqualTo(data);
    String zeroed = "0".repeat(64);
    byte[] good = signedBody(data, 10);
    String text = new String(good, StandardCharsets.ISO_8859_1);
    List<String> broken = List.of(
        text.replaceAll("chunk-signature=[0-9a-f]{64}", "chunk-signature=" + zeroed),
        // Only the last (empty) chunk's signature zeroed.
        text.substring(0, text.lastIndexOf("chunk-signature=") + 16) + zeroed + "\r\n\r\n",
        text.replace("bytes", "BYTES"),
        text.replaceAll(";chunk-signature=[0-9a-f]{64}", ""));
    for (String body : broken) {
      assertThatThrownBy(() -> readAnnounced(signed(body.getBytes(StandardCharsets.ISO_8859_1),
          data.length), data.length)).as(body).isInstanceOf(AwsChunkedBody.Refused.class);
    }
  }

  @Test
  void chunksThatDoNotAddUpToTheDecodedLengthOrEndEarlyAreRefused() throws IOException {
    byte[] data = "0123456789abcdefghij".getBytes(StandardCharsets.US_ASCII);
    byte[] good = signedBody(data, 8);
    assertThatThrownBy(() -> readAnnounced(signed(good, data.length + 1), data.length + 1))
        .isInstanceOf(AwsChunkedBody.Refused.class);
    assertThatThrownBy(() -> readAnnounced(signed(good, data.length - 1), data.length - 1))
        .isInstanceOf(AwsChunkedBody.Refused.class).hasMessageContaining("more than");
    for (int cut : new int[] {5, good.length / 2, good.length - 3, good.length - 1}) {
      assertThatThrownBy(() -> readAnnounced(signed(Arrays.copyOf(good, cut), data.length),
          data.length)).as("cut at %s", cut).isInstanceOf(AwsChunkedBody.Refused.class);
    }
  }

  @Test
  void anUnsignedBodyIsCheckedByItsTrailingChecksum() throws IOException {
    byte[] data = "hello, trailer".getBytes(StandardCharsets.US_ASCII);
    // CRC32 of "hello, trailer", base64 of its four big-endian bytes.
    AwsChunkedBody.TrailerChecksum expected =
        AwsChunkedBody.TrailerChecksum.of("x-amz-checksum-crc32").orElseThrow();
    expected.update(data, 0, data.length);
    String crc = expected.value();
    byte[] good = ("e\r\nhello, trailer\r\n0\r\nx-amz-checksum-crc32:" + crc + "\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
    assertThat(readAnnounced(unsigned(good, data.length), data.length)).isEqualTo(data);
    byte[] wrong = ("e\r\nhello, trailer\r\n0\r\nx-amz-checksum-crc32:AAAAAA==\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
    assertThatThrownBy(() -> readAnnounced(unsigned(wrong, data.length), data.length))
        .isInstanceOf(AwsChunkedBody.Refused.class).hasMessageContaining("BadDigest");
    byte[] missing = "e\r\nhello, trailer\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    assertThatThrownBy(() -> readAnnounced(unsigned(missing, data.length), data.length))
        .isInstanceOf(AwsChunkedBody.Refused.class).hasMessageContaining("lacks");
    assertThat(AwsChunkedBody.TrailerChecksum.of("x-amz-checksum-crc64nvme")).isEmpty();
  }

  @Test
  void anEmptyBodyIsCheckedWhenOpened() throws IOException {
    assertThat(readAnnounced(signed(signedBody(new byte[0], 8), 0), 0)).isEmpty();
    assertThatThrownBy(() -> signed(("0;chunk-signature=" + "0".repeat(64) + "\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII), 0)).isInstanceOf(AwsChunkedBody.Refused.class);
  }

  /** Reads as the local bucket's writer does: exactly the announced length, no further. */
  private static byte[] readAnnounced(InputStream body, long length) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[7];
    long copied = 0;
    while (copied < length) {
      int n = body.read(buffer, 0, (int) Math.min(buffer.length, length - copied));
      if (n < 0) {
        throw new IOException("ended early");
      }
      out.write(buffer, 0, n);
      copied += n;
    }
    return out.toByteArray();
  }

  private static AwsChunkedBody signed(byte[] wire, long decodedLength) throws IOException {
    return AwsChunkedBody.open(new ByteArrayInputStream(wire), decodedLength,
        Optional.of(new AwsChunkedBody.ChunkSigner(SECRET, DATE, SCOPE, SEED)), Optional.empty());
  }

  private static AwsChunkedBody unsigned(byte[] wire, long decodedLength) throws IOException {
    return AwsChunkedBody.open(new ByteArrayInputStream(wire), decodedLength, Optional.empty(),
        AwsChunkedBody.TrailerChecksum.of("x-amz-checksum-crc32"));
  }

  /** {@code data} in signed chunks of {@code size}, each signed as the SigV4 chain has it. */
  private static byte[] signedBody(byte[] data, int size) throws IOException {
    AwsChunkedBody.ChunkSigner signer = new AwsChunkedBody.ChunkSigner(SECRET, DATE, SCOPE, SEED);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int at = 0; at < data.length; at += size) {
      byte[] chunk = Arrays.copyOfRange(data, at, Math.min(data.length, at + size));
      out.write(frame(chunk, signer.next(sha256(chunk))));
    }
    out.write(frame(new byte[0], signer.next(sha256(new byte[0]))));
    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    return out.toByteArray();
  }

  private static byte[] frame(byte[] chunk, String signature) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write((Integer.toHexString(chunk.length) + ";chunk-signature=" + signature + "\r\n")
        .getBytes(StandardCharsets.US_ASCII));
    out.write(chunk);
    if (chunk.length > 0) {
      out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    }
    return out.toByteArray();
  }

  private static byte[] concat(byte[]... parts) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.write(part);
    }
    return out.toByteArray();
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
