package io.floe.adapters.icechunk.format;

import java.util.HexFormat;

/**
 * A 12-byte Icechunk object id (snapshot, manifest, chunk, transaction log). Its Crockford base32
 * form is the object's file name.
 */
public final class ObjectId12 extends CrockfordId<ObjectId12> {
  public static final int LENGTH = 12;

  /**
   * The well-known id of every repository's first snapshot, {@code 1CECHNKREP0F1RSTCMT0}: all
   * Icechunk implementations create the initial snapshot with it.
   */
  public static final ObjectId12 INITIAL_SNAPSHOT =
      new ObjectId12(HexFormat.of().parseHex("0b1cc8d6787580f0e33a6534"));

  public ObjectId12(byte[] bytes) {
    super(bytes, LENGTH, "an object id");
  }

  public static ObjectId12 random() {
    return new ObjectId12(randomBytes(LENGTH));
  }

  public static ObjectId12 parse(String text) {
    return new ObjectId12(Crockford.decode(text, LENGTH));
  }
}
