package io.floe.adapters.rest.web.view;

/** A copy-paste block of the Connect tab: the engine, its language, an element id, the text. */
public record Snippet(String engine, String language, String id, String text) {}
