package io.floe.adapters.rest.web.view;

/**
 * A page that moves the browser on by itself: after the identity provider's redirect, so that
 * the next request starts on this site and carries the new SameSite=Strict session cookie.
 */
public record Continue(Chrome chrome, String next) {}
