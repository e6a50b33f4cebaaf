package io.floe.adapters.rest.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.floe.application.port.out.IdentityTokens;
import io.floe.domain.StorableText;
import java.net.MalformedURLException;
import java.text.ParseException;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verifies an identity provider's JWTs: signature by a key of its JWKS (fetched and cached,
 * refetched when an unknown key id appears), then {@code iss}, {@code aud} and {@code exp}.
 * Only asymmetric algorithms are accepted, so a token signed with a public key as an HMAC secret
 * (or with "none") never verifies.
 */
public final class JwksIdentityTokens implements IdentityTokens {
  private static final Logger LOG = LoggerFactory.getLogger(JwksIdentityTokens.class);
  private static final Set<JWSAlgorithm> ALGORITHMS = Set.of(JWSAlgorithm.RS256,
      JWSAlgorithm.RS384, JWSAlgorithm.RS512, JWSAlgorithm.PS256, JWSAlgorithm.PS384,
      JWSAlgorithm.PS512, JWSAlgorithm.ES256, JWSAlgorithm.ES384, JWSAlgorithm.ES512,
      JWSAlgorithm.EdDSA);

  private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
  private final String userClaim;

  public JwksIdentityTokens(OidcSettings settings) {
    this.userClaim = settings.userClaim();
    JWKSource<SecurityContext> keys;
    try {
      keys = JWKSourceBuilder.create(settings.jwksUrl().toURL()).retrying(true).build();
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException("invalid JWKS URL: " + settings.jwksUrl(), e);
    }
    processor.setJWSKeySelector(new JWSVerificationKeySelector<>(ALGORITHMS, keys));
    processor.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(settings.audience(),
        new JWTClaimsSet.Builder().issuer(settings.issuer()).build(),
        Set.of("exp", settings.userClaim())));
  }

  @Override
  public Optional<String> verify(String bearer) {
    try {
      Object value = processor.process(bearer, null).getClaim(userClaim);
      // A claim is text decoded from the token: it names a user only if Floe could keep it.
      return value instanceof String text && !text.isBlank()
          && StorableText.problem(text).isEmpty() ? Optional.of(text) : Optional.empty();
    } catch (ParseException | BadJOSEException | JOSEException e) {
      LOG.debug("identity token refused: {}", e.getMessage());
      return Optional.empty();
    }
  }
}
