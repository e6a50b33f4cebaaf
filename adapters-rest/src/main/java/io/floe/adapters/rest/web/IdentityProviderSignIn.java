package io.floe.adapters.rest.web;

import com.nimbusds.jwt.JWTParser;
import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.ErrorObject;
import com.nimbusds.oauth2.sdk.GeneralException;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.openid.connect.sdk.AuthenticationRequest;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponse;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import io.floe.adapters.rest.identity.OidcSettings;
import java.io.IOException;
import java.net.URI;
import java.util.Objects;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;

/**
 * Signing in at the identity provider with the authorization code flow and PKCE (S256): the
 * provider's endpoints come from its discovery document, fetched on first use (so Floe starts
 * while the provider is down). What comes back is the provider's ID token, which the session use
 * case verifies (signature, issuer, audience, expiry); this class checks that the answer belongs
 * to the sign-in this browser started: the state, and the nonce inside the token.
 */
final class IdentityProviderSignIn {
  /** What a browser must keep between leaving for the provider and coming back. */
  record Pending(String state, String codeVerifier, String nonce) {
    Pending {
      Objects.requireNonNull(state, "state");
      Objects.requireNonNull(codeVerifier, "codeVerifier");
      Objects.requireNonNull(nonce, "nonce");
    }
  }

  /** Where to send the browser, and what it must bring back. */
  record Start(URI authorizationUri, Pending pending) {}

  private final OidcSettings settings;
  private volatile OIDCProviderMetadata provider;

  IdentityProviderSignIn(OidcSettings settings) {
    if (!settings.browserSignIn()) {
      throw new IllegalArgumentException("browser sign-in needs an OIDC client id");
    }
    this.settings = settings;
  }

  Start start(URI redirectUri) {
    CodeVerifier verifier = new CodeVerifier();
    State state = new State();
    Nonce nonce = new Nonce();
    AuthenticationRequest request = new AuthenticationRequest.Builder(ResponseType.CODE,
        new Scope("openid", "email", "profile"), new ClientID(settings.clientId().orElseThrow()),
        redirectUri)
        .endpointURI(provider().getAuthorizationEndpointURI())
        .state(state)
        .nonce(nonce)
        .codeChallenge(verifier, CodeChallengeMethod.S256)
        .build();
    return new Start(request.toURI(), new Pending(state.getValue(), verifier.getValue(),
        nonce.getValue()));
  }

  /**
   * Trades the code for the provider's tokens and returns the ID token.
   *
   * @throws NotAuthorizedException when the answer does not belong to {@code pending} or the
   *     provider refuses the code
   */
  String finish(Pending pending, String state, String code, URI redirectUri) {
    if (state == null || !state.equals(pending.state())) {
      throw new NotAuthorizedException("This sign-in was not started here, or it expired; "
          + "sign in again");
    }
    if (code == null || code.isBlank()) {
      throw new NotAuthorizedException("The identity provider sent no authorization code");
    }
    AuthorizationCodeGrant grant = new AuthorizationCodeGrant(new AuthorizationCode(code),
        redirectUri, new CodeVerifier(pending.codeVerifier()));
    ClientID client = new ClientID(settings.clientId().orElseThrow());
    URI endpoint = provider().getTokenEndpointURI();
    TokenRequest request = settings.clientSecret()
        .map(secret -> new TokenRequest(endpoint,
            new ClientSecretBasic(client, new Secret(secret)), grant))
        .orElseGet(() -> new TokenRequest(endpoint, client, grant));
    TokenResponse response;
    try {
      response = OIDCTokenResponseParser.parse(request.toHTTPRequest().send());
    } catch (IOException | ParseException e) {
      throw new ServiceUnavailableException("The identity provider did not answer: %s",
          e.getMessage());
    }
    if (!response.indicatesSuccess()) {
      ErrorObject error = response.toErrorResponse().getErrorObject();
      throw new NotAuthorizedException("The identity provider refused the sign-in: %s",
          error.getDescription() == null ? error.getCode() : error.getDescription());
    }
    String idToken = ((OIDCTokenResponse) response.toSuccessResponse()).getOIDCTokens()
        .getIDTokenString();
    requireNonce(idToken, pending.nonce());
    return idToken;
  }

  /** The nonce ties the token to this browser's sign-in; the signature is checked after. */
  private static void requireNonce(String idToken, String expected) {
    Object nonce;
    try {
      nonce = JWTParser.parse(idToken).getJWTClaimsSet().getClaim("nonce");
    } catch (java.text.ParseException e) {
      throw new NotAuthorizedException("The identity provider's ID token is malformed");
    }
    if (!expected.equals(nonce)) {
      throw new NotAuthorizedException("The identity provider's ID token is not for this sign-in");
    }
  }

  private OIDCProviderMetadata provider() {
    OIDCProviderMetadata known = provider;
    if (known == null) {
      try {
        known = OIDCProviderMetadata.resolve(new Issuer(settings.issuer()));
      } catch (GeneralException | IOException e) {
        throw new ServiceUnavailableException("The identity provider's discovery document "
            + "could not be read: %s", e.getMessage());
      }
      provider = known;
    }
    return known;
  }
}
