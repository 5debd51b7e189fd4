/**
 * The S3 blob store, built for buckets with Object Lock, on a small SigV4 client of its own; the
 * AWS SDK for Java v2 only finds credentials and a region where the environment does not give them.
 */
// The AWS SDK's jars name themselves only in their manifests.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic", "module"})
module dev.stele.s3 {
  requires static transitive org.jspecify; // @Nullable in exported signatures
  requires transitive dev.stele.core;
  requires org.slf4j;
  requires software.amazon.awssdk.auth;
  requires software.amazon.awssdk.core;
  requires software.amazon.awssdk.profiles;
  requires software.amazon.awssdk.regions;

  exports dev.stele.s3;
}
