/** The S3 blob store, built for buckets with Object Lock, on the AWS SDK for Java v2. */
// The AWS SDK's jars name themselves only in their manifests; "s3" is the store's name.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic", "module"})
module dev.stele.s3 {
  requires static transitive org.jspecify; // @Nullable in exported signatures
  requires transitive dev.stele.core;
  requires org.slf4j;
  requires software.amazon.awssdk.auth;
  requires software.amazon.awssdk.awscore;
  requires software.amazon.awssdk.core;
  requires software.amazon.awssdk.http;
  requires software.amazon.awssdk.http.apache;
  requires org.apache.httpcomponents.httpclient; // NoTlsSocketFactory, for apache-client
  requires org.apache.httpcomponents.httpcore;
  requires software.amazon.awssdk.profiles;
  requires software.amazon.awssdk.regions;
  requires transitive software.amazon.awssdk.services.s3; // BucketInspector takes a client

  exports dev.stele.s3;
}
