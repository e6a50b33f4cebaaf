package io.floe.adapters.rest.web.view;

/** A page that could not be shown: the status, what went wrong in words, and a way on. */
public record ErrorPage(Chrome chrome, int status, String heading, String message) {}
