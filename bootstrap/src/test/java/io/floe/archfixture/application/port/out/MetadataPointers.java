package io.floe.archfixture.application.port.out;

/** The fixture's pointer port, which only its committer may use. */
public interface MetadataPointers {
  boolean swap(String from, String to);
}
