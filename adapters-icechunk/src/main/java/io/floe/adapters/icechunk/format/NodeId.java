package io.floe.adapters.icechunk.format;

/** The 8-byte id of a group or array; it stays the same across snapshots for the node's life. */
public final class NodeId extends CrockfordId<NodeId> {
  public static final int LENGTH = 8;

  public NodeId(byte[] bytes) {
    super(bytes, LENGTH, "a node id");
  }

  public static NodeId random() {
    return new NodeId(randomBytes(LENGTH));
  }

  public static NodeId parse(String text) {
    return new NodeId(Crockford.decode(text, LENGTH));
  }
}
