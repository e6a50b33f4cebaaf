package io.floe.adapters.rest.web.view;

/**
 * The sign-in page: the API token form (with its own form token, as there is no session yet),
 * and the identity provider's button when one is configured.
 */
public record SignInPage(Chrome chrome, String next, boolean identityProvider,
    boolean signedOut) {}
