package io.floe.adapters.icechunk.format;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The common wrapping of every Icechunk metadata file: a 39-byte header (12 bytes of magic
 * {@code ICE🧊CHUNK}, a 24-byte space-padded implementation name, then one byte each for spec
 * version, file type and compression) followed by the FlatBuffer, zstd-compressed when the
 * compression byte is 1.
 */
public final class Envelope {
  public static final byte[] MAGIC = "ICE🧊CHUNK".getBytes(StandardCharsets.UTF_8);
  public static final int IMPLEMENTATION_LENGTH = 24;
  public static final int HEADER_LENGTH = MAGIC.length + IMPLEMENTATION_LENGTH + 3;
  /** What Floe writes as implementation name; Python reports it split at '-' as app name/version. */
  public static final String FLOE_IMPLEMENTATION = "floe-0.1.0";

  private static final int COMPRESSION_NONE = 0;
  private static final int COMPRESSION_ZSTD = 1;
  /** Icechunk's default compression level for metadata files. */
  private static final int ZSTD_LEVEL = 3;

  /**
   * A frame claiming more than this many times its own size (plus a margin) is decompressed as a
   * stream rather than into a buffer of the claimed size, so a damaged header cannot make Floe
   * allocate gigabytes before the data proves them.
   */
  private static final long TRUSTED_RATIO = 64;
  private static final long TRUSTED_MARGIN = 16L << 20;

  /** zstd contexts are costly to create and not thread-safe: one of each per thread. */
  private static final ThreadLocal<ZstdCompressCtx> COMPRESSOR =
      ThreadLocal.withInitial(() -> new ZstdCompressCtx().setLevel(ZSTD_LEVEL));
  private static final ThreadLocal<ZstdDecompressCtx> DECOMPRESSOR =
      ThreadLocal.withInitial(ZstdDecompressCtx::new);

  private Envelope() {}

  /** A decoded file: what its header says and the uncompressed FlatBuffer. */
  public record Opened(String implementation, SpecVersion specVersion, FileType fileType,
      byte[] payload) {}

  public static Opened open(String objectName, byte[] data, FileType expected) {
    if (data.length < HEADER_LENGTH) {
      throw new IcechunkFormatException(objectName + ": truncated Icechunk file, " + data.length
          + " bytes is shorter than the " + HEADER_LENGTH + "-byte header");
    }
    if (!Arrays.equals(data, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw new IcechunkFormatException(objectName
          + ": not an Icechunk file (wrong magic bytes; expected ICE\uD83E\uDDCACHUNK)");
    }
    String implementation = new String(data, MAGIC.length, IMPLEMENTATION_LENGTH,
        StandardCharsets.UTF_8).stripTrailing();
    int versionByte = data[MAGIC.length + IMPLEMENTATION_LENGTH] & 0xff;
    int typeByte = data[MAGIC.length + IMPLEMENTATION_LENGTH + 1] & 0xff;
    int compressionByte = data[MAGIC.length + IMPLEMENTATION_LENGTH + 2] & 0xff;
    SpecVersion version = SpecVersion.ofCode(versionByte);
    if (version == null) {
      throw new IcechunkFormatException(objectName + ": unsupported Icechunk spec version "
          + versionByte + " (written by '" + implementation + "'; Floe reads versions 1 and 2)");
    }
    FileType type = FileType.ofCode(typeByte);
    if (type == null) {
      throw new IcechunkFormatException(objectName + ": unknown Icechunk file type " + typeByte);
    }
    if (expected != null && type != expected) {
      throw new IcechunkFormatException(objectName + ": expected a " + expected
          + " file but its header says " + type);
    }
    byte[] payload = switch (compressionByte) {
      case COMPRESSION_NONE -> Arrays.copyOfRange(data, HEADER_LENGTH, data.length);
      case COMPRESSION_ZSTD -> decompress(objectName, data, HEADER_LENGTH);
      default -> throw new IcechunkFormatException(objectName
          + ": unknown compression algorithm " + compressionByte);
    };
    return new Opened(implementation, version, type, payload);
  }

  public static byte[] seal(SpecVersion version, FileType type, byte[] flatbuffer) {
    byte[] out = new byte[HEADER_LENGTH + (int) Zstd.compressBound(flatbuffer.length)];
    int compressed = COMPRESSOR.get().compressByteArray(out, HEADER_LENGTH,
        out.length - HEADER_LENGTH, flatbuffer, 0, flatbuffer.length);
    out = Arrays.copyOf(out, HEADER_LENGTH + compressed);
    System.arraycopy(MAGIC, 0, out, 0, MAGIC.length);
    byte[] name = FLOE_IMPLEMENTATION.getBytes(StandardCharsets.UTF_8);
    Arrays.fill(out, MAGIC.length, MAGIC.length + IMPLEMENTATION_LENGTH, (byte) ' ');
    System.arraycopy(name, 0, out, MAGIC.length, name.length);
    out[MAGIC.length + IMPLEMENTATION_LENGTH] = (byte) version.code();
    out[MAGIC.length + IMPLEMENTATION_LENGTH + 1] = (byte) type.code();
    out[MAGIC.length + IMPLEMENTATION_LENGTH + 2] = COMPRESSION_ZSTD;
    return out;
  }

  /**
   * Decompresses the frame from {@code offset} in one call when its header states a believable
   * content size (Icechunk and Floe write one), else as a stream; a frame that ends early is an
   * error, not a short payload.
   */
  private static byte[] decompress(String objectName, byte[] data, int offset) {
    int length = data.length - offset;
    long size;
    try {
      size = Zstd.getFrameContentSize(data, offset, length);
    } catch (RuntimeException e) {
      throw new IcechunkFormatException(objectName + ": corrupt or truncated zstd frame header ("
          + e + ")", e);
    }
    if (size >= 0 && size <= TRUSTED_RATIO * length + TRUSTED_MARGIN) {
      byte[] out = new byte[(int) size];
      int n;
      try {
        n = DECOMPRESSOR.get().decompressByteArray(out, 0, out.length, data, offset, length);
      } catch (RuntimeException e) {
        throw new IcechunkFormatException(objectName
            + ": corrupt or truncated zstd frame (" + e.getMessage() + ")", e);
      }
      if (n != size) {
        throw new IcechunkFormatException(objectName + ": zstd frame holds " + n
            + " bytes but its header says " + size);
      }
      return out;
    }
    return decompressStream(objectName, data, offset, length);
  }

  private static byte[] decompressStream(String objectName, byte[] data, int offset, int length) {
    try (InputStream in = new ZstdInputStream(new ByteArrayInputStream(data, offset, length))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream(length * 4);
      in.transferTo(out);
      return out.toByteArray();
    } catch (IOException | RuntimeException e) {
      throw new IcechunkFormatException(objectName
          + ": corrupt or truncated zstd frame (" + e.getMessage() + ")", e);
    }
  }
}
