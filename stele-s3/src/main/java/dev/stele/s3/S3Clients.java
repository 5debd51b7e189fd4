package dev.stele.s3;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.AwsProfileRegionProvider;
import software.amazon.awssdk.regions.providers.AwsRegionProvider;
import software.amazon.awssdk.regions.providers.AwsRegionProviderChain;
import software.amazon.awssdk.regions.providers.InstanceProfileRegionProvider;
import software.amazon.awssdk.regions.providers.SystemSettingsRegionProvider;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.S3Configuration;

/**
 * The SDK clients of one store: one pool of HTTP connections, and two {@link S3Client}s over it.
 *
 * <p>{@link #reads} keeps the SDK's standard retries (jittered backoff, a few attempts), which are
 * safe for reads, listings and other idempotent requests. {@link #writes} never retries: a PUT
 * whose answer was lost may have landed, and on a versioned bucket a blind second PUT makes a
 * second version. The store retries writes itself, after looking (see {@link S3BlobStore}).
 *
 * <p>Both compute checksums only when an operation requires one ({@code WHEN_REQUIRED}): the SDK's
 * default trailing checksums in aws-chunked bodies are rejected by Ceph RGW 16
 * (XAmzContentSHA256Mismatch). The store sets Content-MD5 on every PUT and part itself.
 */
final class S3Clients implements Closeable {
  final S3Client reads;
  final S3Client writes;
  private final SdkHttpClient http;

  private S3Clients(S3Client reads, S3Client writes, SdkHttpClient http) {
    this.reads = reads;
    this.writes = writes;
    this.http = http;
  }

  @SuppressWarnings(
      "deprecation") // ApacheHttpClient: its successor, apache5-client, is a new dependency and a
  // change of its own
  static S3Clients connect(
      S3Location location, S3Options options, List<ExecutionInterceptor> interceptors)
      throws IOException {
    ApacheHttpClient.Builder httpBuilder =
        ApacheHttpClient.builder()
            .maxConnections(options.maxConnections())
            .connectionTimeout(Duration.ofSeconds(10))
            .socketTimeout(Duration.ofSeconds(60))
            // RGW 16 answers no "100 Continue" to PutObjectRetention, so every retention change
            // would wait out Apache's 3 s before sending its body.
            .expectContinueEnabled(false);
    URI endpoint = location.endpoint();
    if (endpoint != null && "http".equalsIgnoreCase(endpoint.getScheme())) {
      // Without a factory of its own for https, Apache's client builds a TLS context (reading the
      // JDK's trust store) that an http:// endpoint never uses: 60-90 ms of every command.
      httpBuilder.socketFactory(new NoTlsSocketFactory(endpoint));
    } else if (location.caCert() != null) {
      TrustManager[] trust = trustManagers(location);
      httpBuilder.tlsTrustManagersProvider(() -> trust);
    }
    SdkHttpClient http = httpBuilder.build();
    try {
      // Resolved once for both clients: without them in the location, each would read the
      // environment and the profile files, and keep credentials (and refresh them) of its own.
      Region region = region(location);
      AwsCredentialsProvider credentials = credentials(location);
      S3Client reads = builder(location, http, region, credentials, interceptors, false).build();
      S3Client writes = builder(location, http, region, credentials, interceptors, true).build();
      return new S3Clients(reads, writes, http);
    } catch (SdkException | IllegalArgumentException e) {
      http.close();
      throw new IOException(location + ": cannot set up the S3 client: " + e.getMessage(), e);
    }
  }

  private static S3ClientBuilder builder(
      S3Location location,
      SdkHttpClient http,
      Region region,
      AwsCredentialsProvider credentials,
      List<ExecutionInterceptor> interceptors,
      boolean noRetries) {
    S3ClientBuilder builder =
        S3Client.builder()
            .httpClient(http)
            .region(region)
            .credentialsProvider(credentials)
            .forcePathStyle(location.pathStyle())
            // Plain payloads, signed whole over HTTP: RGW 16 rejects an empty aws-chunked body.
            .serviceConfiguration(S3Configuration.builder().chunkedEncodingEnabled(false).build())
            .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
            .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
            .overrideConfiguration(
                c -> {
                  interceptors.forEach(c::addExecutionInterceptor);
                  if (noRetries) {
                    c.retryStrategy(AwsRetryStrategy.doNotRetry());
                  }
                });
    if (location.endpoint() != null) {
      builder.endpointOverride(location.endpoint());
    }
    return builder;
  }

  /**
   * The location's region; else the environment's ({@code AWS_REGION}, {@code aws.region}), then
   * the profile file's (the location's profile, or the default one), then, on AWS only, the EC2
   * instance metadata's; else us-east-1. With an endpoint of its own (RGW, MinIO) the instance
   * metadata is never asked: off EC2 that question cost every command 1.5 s of timeouts.
   */
  static Region region(S3Location location) {
    if (location.region() != null) {
      return Region.of(location.region());
    }
    List<AwsRegionProvider> providers = new ArrayList<>();
    providers.add(new SystemSettingsRegionProvider());
    providers.add(
        location.profile() == null
            ? new AwsProfileRegionProvider()
            : new AwsProfileRegionProvider(ProfileFile::defaultProfileFile, location.profile()));
    if (location.endpoint() == null) {
      providers.add(new InstanceProfileRegionProvider());
    }
    try {
      return new AwsRegionProviderChain(providers.toArray(AwsRegionProvider[]::new)).getRegion();
    } catch (SdkException e) {
      return Region.US_EAST_1;
    }
  }

  private static AwsCredentialsProvider credentials(S3Location location) {
    if (location.accessKey() != null) {
      return StaticCredentialsProvider.create(
          AwsBasicCredentials.create(location.accessKey(), location.secretKey()));
    }
    if (location.profile() != null) {
      return ProfileCredentialsProvider.create(location.profile());
    }
    return DefaultCredentialsProvider.builder().build();
  }

  private static TrustManager[] trustManagers(S3Location location) throws IOException {
    try (InputStream in = Files.newInputStream(location.caCert())) {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int i = 0;
      for (Certificate cert : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        store.setCertificateEntry("ca-" + i++, cert);
      }
      if (i == 0) {
        throw new IOException(location.caCert() + ": no certificates in the file");
      }
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      return factory.getTrustManagers();
    } catch (GeneralSecurityException e) {
      throw new IOException(location.caCert() + ": not a PEM certificate file", e);
    }
  }

  @Override
  public void close() {
    reads.close();
    writes.close();
    http.close();
  }
}
